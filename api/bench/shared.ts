/**
 * What other workspaces' benchmarks share with `npm run bench` (the CLI's bench:compare drives
 * the same workloads against the same broker build), as the package's `./bench` entry, so that
 * they import `@miniqueue/api/bench` rather than reach into this folder by path.
 */
export { buildBroker, newAdminKey, REPO_ROOT, startBroker } from './broker.js';
export { loadBenchConfig } from './config.js';
export { BenchClient, type LoadResult } from './http.js';
export { startServer } from './postgres.js';
export { consumeAck, publishSingle, seed } from './scenarios/throughput.js';
export { createKeys, createTopic, PAYLOAD, purge } from './scenarios/topology.js';

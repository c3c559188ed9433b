#!/usr/bin/env node
// Client CPU per request: `publish` through the SDK against a live broker, in a loop (one request
// at a time, or --concurrency loops at once), beside the same request over plain node:http (keep-alive) and over the global fetch, in
// the same process and run. Rounds alternate the three so that drift in the machine's speed falls
// on all of them; each figure is the median of the rounds. CPU is this process's user + system
// time (process.cpuUsage), so what the broker spends does not count. Not a test: the figures
// depend on the machine.
//
//   npm run build -w @miniqueue/sdk
//   node sdk/bench/requestCpu.mjs --url http://127.0.0.1:8080 --api-key mq_…   # an admin key
//   node sdk/bench/requestCpu.mjs --concurrency 32 …                          # 32 in flight
//   node --cpu-prof --cpu-prof-dir=/tmp/prof sdk/bench/requestCpu.mjs --only sdk …   # a profile of the SDK's share
//
// It creates a topic named sdk-cpu-<random> with no queue bound (a publish to it stores nothing)
// and deletes it at the end.
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { MiniQueue } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.MINIQUEUE_URL ?? 'http://127.0.0.1:8080' },
    'api-key': { type: 'string', default: process.env.MINIQUEUE_API_KEY },
    requests: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '500' },
    // Requests in flight; 1 measures one request at a time, 32 the load `npm run bench` puts on.
    concurrency: { type: 'string', default: '1' },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
if (!values['api-key']) {
  console.error('Give an admin key: --api-key mq_… or MINIQUEUE_API_KEY.');
  process.exit(2);
}
const baseUrl = values.url.replace(/\/+$/, '');
const key = values['api-key'];
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const topic = `sdk-cpu-${randomBytes(4).toString('hex')}`;
const path = `/api/v1/topics/${topic}/messages`;
// The payload of `npm run bench` (api/bench/scenarios/topology.ts): ~200 bytes of JSON.
const PAYLOAD = JSON.stringify({ orderId: 42, customer: 'c-1001', items: [{ sku: 'A-1', qty: 2 }], note: 'x'.repeat(120) });

/** The least a program can do: node:http over one keep-alive socket, the body read and parsed. */
function rawHttp() {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const send = () =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ payload: PAYLOAD });
      const headers = {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'idempotency-key': randomUUID(),
      };
      const request = http.request({ host: hostname, port, method: 'POST', path, headers, agent }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          response.statusCode === 201 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`HTTP ${response.statusCode}`)),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/** The global fetch (undici) alone, as a program without the SDK would publish. */
function globalFetch() {
  const send = async () => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ payload: PAYLOAD }),
    });
    if (response.status !== 201) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
  return { send, close: () => undefined };
}

/** The SDK as a program uses it: one client, `publish` (a fresh idempotency key per call). */
function sdk() {
  const client = new MiniQueue({ url: baseUrl, apiKey: key });
  return { send: () => client.publish(topic, PAYLOAD), close: () => undefined };
}

const variants = { 'node:http': rawHttp(), fetch: globalFetch(), sdk: sdk() };
const chosen = values.only ? values.only.split(',') : Object.keys(variants);

async function cpuPerRequest(variant, count) {
  const before = process.cpuUsage();
  const started = process.hrtime.bigint();
  let left = count;
  const loop = async () => {
    while (left > 0) {
      left -= 1;
      await variant.send();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const wallUs = Number(process.hrtime.bigint() - started) / 1e3;
  const cpu = process.cpuUsage(before);
  return { cpuUs: (cpu.user + cpu.system) / count, wallUs: wallUs / count };
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

const admin = new MiniQueue({ url: baseUrl, apiKey: key });
await admin.topics.create(topic);
try {
  for (const name of chosen) await cpuPerRequest(variants[name], Number(values.warmup));
  const samples = Object.fromEntries(chosen.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const name of chosen) samples[name].push(await cpuPerRequest(variants[name], requests));
  }
  const results = Object.fromEntries(
    chosen.map((name) => [
      name,
      { cpu_us: Math.round(median(samples[name].map((s) => s.cpuUs))), wall_us: Math.round(median(samples[name].map((s) => s.wallUs))) },
    ]),
  );
  if (values.json) {
    console.log(JSON.stringify({ url: baseUrl, node: process.version, requests, rounds, concurrency, results }, null, 2));
  } else {
    console.log(`client CPU per publish, ${requests} requests × ${rounds} rounds, ${concurrency} in flight (${process.version}, ${baseUrl})`);
    for (const [name, figures] of Object.entries(results)) {
      const ratio = results['node:http'] ? ` (${(figures.cpu_us / results['node:http'].cpu_us).toFixed(2)}× node:http)` : '';
      console.log(`${name.padEnd(10)} ${String(figures.cpu_us).padStart(5)} µs CPU${ratio}, ${figures.wall_us} µs wall`);
    }
  }
} finally {
  for (const variant of Object.values(variants)) variant.close();
  await admin.topics.delete(topic).catch((error) => console.error(`could not delete ${topic}: ${error.message}`));
}

import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// The broker's test harness comes from its package (@miniqueue/api's `./testing` entries), not by path.
const fromApi = (entry: string) => createRequire(import.meta.url).resolve(`@miniqueue/api/${entry}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The broker's own harness: one PostgreSQL per run, a fresh database per startTestBroker().
    globalSetup: [fromApi('testing/global-setup')],
    // After each file: no secret in any line its brokers logged.
    setupFiles: [fromApi('testing/log-scan')],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
  },
});

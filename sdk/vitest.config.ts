import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The broker's own harness: one PostgreSQL per run, a fresh database per startTestBroker().
    globalSetup: ['../api/test/helpers/globalSetup.ts'],
    // After each file: no secret in any line its brokers logged.
    setupFiles: ['../api/test/helpers/logScan.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
  },
});

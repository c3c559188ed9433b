import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/helpers/globalSetup.ts'],
    // After each file: no secret in any line its brokers logged.
    setupFiles: ['./test/helpers/logScan.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: two test files at a time, each with its own database.
    maxWorkers: 2,
    fileParallelism: true,
  },
});

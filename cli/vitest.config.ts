import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL for the run (DATABASE_URL, a container, or embedded); each file makes its own database.
    globalSetup: ['../api/test/helpers/globalSetup.ts'],
    // logScan: after each file, no secret in any line its brokers logged.
    setupFiles: ['./test/helpers/setup.ts', '../api/test/helpers/logScan.ts'],
    // oclif writes through process.stdout; the tests capture that themselves.
    disableConsoleIntercept: true,
    env: { OCLIF_SKIP_NEW_VERSION_CHECK: 'true' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
  },
});

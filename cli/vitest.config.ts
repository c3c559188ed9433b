import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// The broker's test helpers come from its package (@miniqueue/api's `./testing` entries), not by path.
const fromApi = (entry: string) => createRequire(import.meta.url).resolve(`@miniqueue/api/${entry}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL for the run (DATABASE_URL, a container, or embedded); each file makes its own database.
    globalSetup: [fromApi('testing/global-setup')],
    // logScan: after each file, no secret in any line its brokers logged.
    setupFiles: ['./test/helpers/setup.ts', fromApi('testing/log-scan')],
    // oclif writes through process.stdout; the tests capture that themselves.
    disableConsoleIntercept: true,
    env: { OCLIF_SKIP_NEW_VERSION_CHECK: 'true' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
  },
});

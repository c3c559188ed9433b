import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// The broker's test harness comes from its package (@miniqueue/api's `./testing` entries), not by path.
const fromApi = (entry: string) => createRequire(import.meta.url).resolve(`@miniqueue/api/${entry}`);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Seconds of pure logic first; the browser tests after them.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/**/*.test.ts'],
          // One PostgreSQL for the run (the api's harness), then the dashboard built once so the
          // broker under test serves exactly this source.
          globalSetup: [fromApi('testing/global-setup'), './test/helpers/buildDashboard.ts'],
          // After each file: no secret in any line its brokers logged.
          setupFiles: [fromApi('testing/log-scan')],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file runs a broker and a Chromium: two at a time is what two cores take.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

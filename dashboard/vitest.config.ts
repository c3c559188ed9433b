import { defineConfig } from 'vitest/config';

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
          globalSetup: ['../api/test/helpers/globalSetup.ts', './test/helpers/buildDashboard.ts'],
          // After each file: no secret in any line its brokers logged.
          setupFiles: ['../api/test/helpers/logScan.ts'],
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

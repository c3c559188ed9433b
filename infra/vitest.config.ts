import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The Grafana and alert tests scrape a real broker, which needs the run's PostgreSQL.
    globalSetup: ['../api/test/helpers/globalSetup.ts'],
    // Each Pulumi program test runs the program once under mocks; the runtime's state is global,
    // so every test file gets its own process.
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

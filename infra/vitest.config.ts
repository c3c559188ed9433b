import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// The broker's test harness comes from its package (@miniqueue/api's `./testing` entries), not by path.
const fromApi = (entry: string) => createRequire(import.meta.url).resolve(`@miniqueue/api/${entry}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The Grafana and alert tests scrape a real broker, which needs the run's PostgreSQL.
    globalSetup: [fromApi('testing/global-setup')],
    // Each Pulumi program test runs the program once under mocks; the runtime's state is global,
    // so every test file gets its own process.
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

import { defineConfig } from 'vitest/config';

// Two projects: unit tests are pure and fast; integration tests use a private redis-server started
// once for the run by the global setup (never the one on 6379), the CLI as a child process, and
// temp folders. Each test file isolates itself with its own key prefix.
export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default'] : ['default'],
    // Integration tests mostly wait (on polls, child processes, the network): two files at once on
    // two cores, where vitest would run one (its default is the cores less one).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Pure tests share their workers' modules: loading src/ again for each of 120 files cost
          // more than the tests themselves.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The end-to-end suites each run real claude processes; two cores cannot run many at once.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});

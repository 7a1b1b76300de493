import { defineProject } from 'vitest/config';

// Whole-system tests: the built program, real peers and Debian chromium.
// One file at a time: two browsers at once are too much for a 2-core machine.
export default defineProject({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'], externalConditions: ['development'] } },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

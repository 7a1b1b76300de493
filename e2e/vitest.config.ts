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
    // After the server and web projects, alone: two browsers, or a browser beside a busy server
    // test, are too much for a 2-core machine.
    sequence: { groupOrder: 1 },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

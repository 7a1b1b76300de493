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
    // One more try for a browser test that fails: on a loaded 2-core CI machine one of them timed
    // out now and then (about one run in ten, a different test each time, none when run alone).
    // A test that fails twice fails the run; vitest's report still names each retry.
    retry: 1,
  },
});

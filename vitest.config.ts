import { defineConfig } from 'vitest/config';

// One runner for every tier: unit tests beside the code, integration tests on
// a real server, system tests with real peers and the browser (e2e/).
export default defineConfig({
  test: {
    projects: ['packages/server', 'packages/web', 'e2e'],
    // Two files at a time (vitest's default on a 2-core machine is one: cores - 1). Most server
    // tests wait on sockets, peers and child processes rather than on the CPU; the browser tests
    // run after the rest, one file at a time (e2e/vitest.config.ts).
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

// One runner for every tier: unit tests beside the code, integration tests on
// a real server, system tests with real peers and the browser (e2e/).
export default defineConfig({
  test: {
    projects: ['packages/server', 'packages/web', 'e2e'],
  },
});

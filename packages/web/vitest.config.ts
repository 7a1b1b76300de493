import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      // antd renders slowly under jsdom; the default 5 s is tight on a busy CI box.
      testTimeout: 20000,
      // One more try for a screen test that fails: antd renders in several passes, and on a loaded
      // CI machine one test once saw the first of two field messages before the second (since made
      // to wait for both). A test that fails twice fails the run; the report names each retry.
      retry: 1,
    },
  }),
);

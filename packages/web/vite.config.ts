import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { localeParts } from './localeParts.ts';

// The vendor groups are split by how often they change and by which route needs
// them: the login route loads react, the router, i18n and the antd core only;
// heavier antd parts (Table, Menu, Tabs, QRCode…) land in the chunks of the
// screens that use them because they are left to automatic splitting.
const VENDOR_GROUPS: { name: string; test: RegExp; priority: number }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/, priority: 30 },
  {
    name: 'i18n',
    test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/,
    priority: 30,
  },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 30 },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 30 },
];

/** Paths the console calls, all relative to the page (docs/API.md). */
const API_PATHS = ['/api', '/version', '/2FAStatus', '/frontendcontroll'];

function devApiProxy(target: string | undefined) {
  if (!target) return undefined;
  // `secure: false`: the dev server's admin certificate is self-signed.
  return Object.fromEntries(API_PATHS.map((p) => [p, { target, changeOrigin: false, secure: false }]));
}

export default defineConfig({
  // Relative asset URLs: the console also works under the security entrance
  // (`/<entrance>/`) and behind a reverse proxy with a path prefix.
  base: './',
  plugins: [react(), localeParts(fileURLToPath(new URL('./src/i18n', import.meta.url)))],
  resolve: {
    // `@lucky/shared` points its `development` export at the TypeScript source.
    conditions: ['development', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bundle-size.mjs reads it to measure what each route loads.
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: {
        // The shared package has no import-time effects; saying so lets the
        // bundler drop base.ts (and zod with it) from chunks that only need
        // constants from limits.ts or api.ts.
        moduleSideEffects: (id) => (/packages[\\/]shared[\\/]src[\\/]/.test(id) ? false : undefined),
      },
      output: {
        codeSplitting: { groups: VENDOR_GROUPS },
      },
    },
  },
  server: {
    port: 5173,
    // `npm run dev` runs the server on LUCKY_DEV_API; the browser calls stay relative.
    proxy: devApiProxy(process.env.LUCKY_DEV_API),
  },
  preview: { proxy: devApiProxy(process.env.LUCKY_DEV_API) },
});

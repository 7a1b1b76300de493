// `npm run dev`: the server from TypeScript sources with reload (tsx watch) on
// 16601, and Vite's dev server on 5173 proxying the API to it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNative } from './build-native.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildNative(); // the shared-port helper the sources load (core/net/sharedPort.ts)
const procs = [
  spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      'watch',
      '--conditions=development',
      'packages/server/src/main.ts',
      '--no-supervisor',
      '-cd',
      'data',
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: 'inherit' },
  ),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
    cwd: path.join(root, 'packages/web'),
    stdio: 'inherit',
    env: { ...process.env, LUCKY_DEV_API: 'http://127.0.0.1:16601' },
  }),
];
const stop = () => {
  for (const p of procs) p.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

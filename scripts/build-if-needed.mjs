// Build only what changed: tsc -b is incremental by itself; the native helper is compiled when
// missing or older than its source (build-native.mjs; without a C compiler it says what to
// install and the build goes on); the web bundle is rebuilt when any of its sources is newer
// than dist/index.html.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNative } from './build-native.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(p)) {
    if (name === 'node_modules' || name === 'dist') continue;
    max = Math.max(max, newest(path.join(p, name)));
  }
  return max;
}

export function buildIfNeeded() {
  run(process.execPath, [
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-b',
    'packages/shared',
    'packages/server',
  ]);
  buildNative();
  const web = path.join(root, 'packages/web');
  const built = path.join(web, 'dist/index.html');
  const sources = Math.max(
    newest(path.join(web, 'src')),
    newest(path.join(web, 'index.html')),
    newest(path.join(web, 'vite.config.ts')),
    newest(path.join(root, 'packages/shared/src')),
  );
  if (!existsSync(built) || statSync(built).mtimeMs < sources) {
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: web,
      stdio: 'inherit',
    });
    run(process.execPath, [path.join(root, 'scripts/compress-web.mjs')]);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded();

// Builds the native helper packages/server/native/sharedport.c (one local TCP port shared by a
// listener and outgoing connections, for STUN over TCP) into
// packages/server/native/build/sharedport.node, when that is missing or older than its sources.
// It is a Node-API addon in plain C, compiled with the system C compiler ($CC, else cc) against
// the headers of the node-api-headers package — not node-gyp, which downloads Node's headers.
// Without a compiler it says in one line what to install and exits 0: the console runs, and only
// the features that need the helper say why they cannot work (sharedPortSupport()).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'packages/server/native/sharedport.c');
const output = path.join(root, 'packages/server/native/build/sharedport.node');
const INSTALL_HINT = 'apt-get install gcc libc6-dev';

const mtime = (p) => statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** 'built' | 'fresh' (nothing to do) | 'skipped' (cannot build here; the reason was printed). */
export function buildNative() {
  if (!existsSync(source)) return 'fresh'; // an installed release: it carries the built helper
  const self = fileURLToPath(import.meta.url);
  if (existsSync(output) && mtime(output) >= Math.max(mtime(source), mtime(self))) return 'fresh';

  const cc = (process.env.CC?.trim() || 'cc').split(/\s+/);
  let includeDir;
  try {
    includeDir = createRequire(path.join(root, 'package.json'))('node-api-headers').include_dir;
  } catch {
    console.warn('sharedport: the node-api-headers package is missing (run `npm ci`); native helper not built');
    return 'skipped';
  }

  mkdirSync(path.dirname(output), { recursive: true });
  // Written beside and renamed into place: a running console that has the old file mapped keeps it.
  const partial = `${output}.${process.pid}.tmp`;
  const args = [
    ...cc.slice(1),
    '-O2',
    '-shared',
    '-fPIC',
    '-std=gnu11',
    '-Wall',
    '-Wextra',
    '-fvisibility=hidden',
    '-I',
    includeDir,
    '-o',
    partial,
    source,
  ];
  const run = spawnSync(cc[0], args, { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    rmSync(partial, { force: true });
    if (run.error?.code === 'ENOENT') {
      console.warn(
        `sharedport: no C compiler (${cc[0]}) — STUN over TCP needs the native helper; install one with: ${INSTALL_HINT}`,
      );
    } else {
      process.stderr.write(run.stderr ?? '');
      console.warn(
        `sharedport: compiling the native helper failed (${run.error?.message ?? `${cc[0]} exited ${run.status}`}) — STUN over TCP needs it; a missing header means: ${INSTALL_HINT}`,
      );
    }
    return 'skipped';
  }
  if (run.stderr) process.stderr.write(run.stderr); // warnings
  renameSync(partial, output);
  return 'built';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildNative();

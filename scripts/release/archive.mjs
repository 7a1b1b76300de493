// Builds the installable archive for one Linux CPU (called by scripts/package.mjs):
//   release/lucky-console-<version>-linux-<arch>.tar.gz  →  lucky-console-<version>-linux-<arch>/
//     install.sh, README.txt, release.txt (version, arch, node version),
//     bin/lucky                       sh launcher: node/bin/node app/packages/server/dist/main.js "$@"
//     node/bin/node, node/LICENSE     Node from the npm package node-linux-<arch> (the version pinned in
//                                     the root package.json's optionalDependencies)
//     app/                            the install root the self-updater swaps dist/ under:
//       package.json, packages/{server,shared,web}/package.json, packages/*/dist,
//       node_modules                  production dependencies of server + shared for the TARGET cpu
// Every ELF file in the tree is checked to be for the target CPU (a wrong one stops the build).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ARCHES = ['x64', 'arm64'];
/** ELF e_machine per Node arch name. */
const ELF_MACHINE = { x64: 62, arm64: 183 };
const CROSS_CC = { x64: 'x86_64-linux-gnu-gcc', arm64: 'aarch64-linux-gnu-gcc' };
/** Dependencies of the installed console: the web ships built, so its workspace is left out. */
const RUNTIME_WORKSPACES = ['packages/server', 'packages/shared'];
const PACKAGE_FILES = ['packages/server/package.json', 'packages/shared/package.json', 'packages/web/package.json'];

function run(bin, args, opts = {}) {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.error || r.status !== 0) {
    throw new Error(`${bin} ${args.join(' ')}: ${(r.stderr || r.error?.message || '').trim().slice(-2000)}`);
  }
  return r.stdout;
}

/** npm, run by the Node running this script (npm_execpath is set under `npm run`). */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  return cli?.endsWith('.js') ? run(process.execPath, [cli, ...args], { cwd }) : run('npm', args, { cwd });
}

/** The machine's CPU in Node's names. */
export function hostArch() {
  return process.arch;
}

/** Node for the target CPU: the installed optional dependency when it matches, else `npm pack` (npm cache / registry). */
function fetchNode(root, arch, nodeVersion, into, scratch) {
  const pkgName = `node-linux-${arch}`;
  let src = path.join(root, 'node_modules', pkgName);
  const installed = (() => {
    try {
      return JSON.parse(fs.readFileSync(path.join(src, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  })();
  if (installed !== nodeVersion) {
    const dir = fs.mkdtempSync(path.join(scratch, 'node-'));
    const out = npm(['pack', `${pkgName}@${nodeVersion}`, '--pack-destination', dir, '--silent'], dir).trim();
    const tgz = path.join(dir, out.split('\n').pop());
    run('tar', ['-xzf', tgz, '-C', dir, 'package/bin/node', 'package/LICENSE']);
    src = path.join(dir, 'package');
  }
  fs.mkdirSync(path.join(into, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(src, 'bin/node'), path.join(into, 'bin/node'));
  fs.chmodSync(path.join(into, 'bin/node'), 0o755);
  fs.copyFileSync(path.join(src, 'LICENSE'), path.join(into, 'LICENSE'));
}

/** GNU strip's name per target CPU: the host's own `strip` only knows the host's ELF. */
const STRIP_TOOLS = { x64: ['x86_64-linux-gnu-strip', 'strip'], arm64: ['aarch64-linux-gnu-strip'] };

/**
 * Node's npm binary carries its symbol table and debug info (~18 MB of 127 MB, ~4 MB gzipped); a
 * user's box never needs them. `strip` keeps the dynamic symbol table, which native add-ons (sharp,
 * the STUN helper) link against. Returns how it went, for the build's summary line.
 */
function stripNode(file, arch) {
  for (const tool of STRIP_TOOLS[arch]) {
    if (tool === 'strip' && hostArch() !== arch) continue;
    const r = spawnSync(tool, ['--strip-all', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.error?.code === 'ENOENT') continue;
    if (r.status !== 0) throw new Error(`${tool} failed on ${file}: ${r.stderr}`);
    return `stripped (${tool})`;
  }
  return `not stripped (no ${STRIP_TOOLS[arch][0]}: Debian binutils${arch === 'arm64' ? '-aarch64-linux-gnu' : ''})`;
}

/**
 * Production node_modules for the target from the lock file: `npm ci` of the runtime workspaces in
 * a scratch copy of the manifests, with npm's --os/--cpu so platform packages (sharp's @img/*) are
 * the target's. Returns the scratch dir (node_modules, packages/<name>/node_modules).
 */
function installDeps(root, arch, scratch) {
  const dir = fs.mkdtempSync(path.join(scratch, 'deps-'));
  for (const f of ['package.json', 'package-lock.json', ...PACKAGE_FILES]) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  npm(
    [
      'ci',
      '--omit=dev',
      '--os=linux',
      `--cpu=${arch}`,
      '--libc=glibc',
      ...RUNTIME_WORKSPACES.flatMap((w) => ['-w', w]),
      '--include-workspace-root=false',
      '--ignore-scripts', // nothing may run for a foreign CPU; sharp ships prebuilt binaries
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    dir,
  );
  fs.rmSync(path.join(dir, 'node_modules/.bin'), { recursive: true, force: true });
  return dir;
}

/** The sharedport.node helper for the target: this build's when the CPUs match, else a cross-compile if a compiler is there. */
function nativeHelper(root, arch, into) {
  const dst = path.join(into, 'packages/server/dist/native/sharedport.node');
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  const built = path.join(root, 'packages/server/native/build/sharedport.node');
  if (arch === hostArch()) {
    if (!fs.existsSync(built)) return 'missing (not built here: no C compiler?)';
    fs.copyFileSync(built, dst);
    return 'from this build';
  }
  const cc = CROSS_CC[arch];
  let includeDir;
  try {
    includeDir = createRequire(path.join(root, 'package.json'))('node-api-headers').include_dir;
  } catch {
    return 'missing (node-api-headers not installed)';
  }
  const source = path.join(root, 'packages/server/native/sharedport.c');
  const r = spawnSync(
    cc,
    ['-O2', '-shared', '-fPIC', '-std=gnu11', '-fvisibility=hidden', '-I', includeDir, '-o', dst, source],
    {
      encoding: 'utf8',
    },
  );
  if (r.error?.code === 'ENOENT') return `missing (no ${cc}: apt-get install gcc-${cc.replace(/-gcc$/, '')})`;
  if (r.status !== 0) throw new Error(`${cc}: ${r.stderr}`);
  return `cross-compiled with ${cc}`;
}

/** Copies a tree (regular files and symlinks as they are), skipping names that match `skip`. */
function copyTree(src, dst, skip) {
  fs.mkdirSync(dst, { recursive: true });
  for (const ent of fs.readdirSync(src, { withFileTypes: true })) {
    if (skip?.test(ent.name)) continue;
    const s = path.join(src, ent.name);
    const d = path.join(dst, ent.name);
    if (ent.isDirectory()) copyTree(s, d, skip);
    else if (ent.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(s), d);
    else if (ent.isFile()) fs.copyFileSync(s, d);
  }
}

/** Every ELF file under dir whose CPU is not the target's, as relative paths. */
export function foreignElfFiles(dir, arch) {
  const want = ELF_MACHINE[arch];
  const bad = [];
  const head = Buffer.alloc(20);
  const walk = (rel) => {
    for (const ent of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, ent.name);
      if (ent.isDirectory()) walk(r);
      else if (ent.isFile()) {
        const fd = fs.openSync(path.join(dir, r), 'r');
        const n = fs.readSync(fd, head, 0, 20, 0);
        fs.closeSync(fd);
        if (n === 20 && head.readUInt32BE(0) === 0x7f454c46 && head.readUInt16LE(18) !== want) bad.push(r);
      }
    }
  };
  walk('');
  return bad;
}

/** Fixed mtimes and modes, so two builds of one commit give the same tar (gzip gets no timestamp). */
function normalise(dir, mtime) {
  const walk = (p) => {
    const st = fs.lstatSync(p);
    if (st.isDirectory()) {
      for (const ent of fs.readdirSync(p)) walk(path.join(p, ent));
      fs.chmodSync(p, 0o755);
    } else if (st.isFile()) {
      fs.chmodSync(p, st.mode & 0o111 ? 0o755 : 0o644);
    }
    if (!st.isSymbolicLink()) fs.utimesSync(p, mtime, mtime);
    else fs.lutimesSync(p, mtime, mtime);
  };
  walk(dir);
}

/** The time the files get: SOURCE_DATE_EPOCH, else the last commit's, else 2000-01-01. */
function sourceDate(root) {
  const env = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isInteger(env) && env > 0) return env;
  const r = spawnSync('git', ['-C', root, 'log', '-1', '--format=%ct'], { encoding: 'utf8' });
  const t = Number(r.stdout?.trim());
  return r.status === 0 && t > 0 ? t : 946684800;
}

/**
 * Makes <outDir>/lucky-console-<version>-linux-<arch>.tar.gz. `appTree` is the self-update package's
 * unpacked folder (lucky-console/), copied as app/, so both carry the same program.
 */
export async function buildArchive({ root, outDir, version, arch, appTree }) {
  if (!ARCHES.includes(arch)) throw new Error(`unknown arch ${arch} (use ${ARCHES.join(', ')})`);
  const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const nodeVersion = rootPkg.optionalDependencies?.[`node-linux-${arch}`];
  if (!nodeVersion) throw new Error(`package.json has no optionalDependencies["node-linux-${arch}"]`);
  const name = `lucky-console-${version}-linux-${arch}`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lucky-archive-'));
  try {
    const top = path.join(scratch, name);
    const app = path.join(top, 'app');
    copyTree(appTree, app);
    fs.rmSync(path.join(app, 'release.json'), { force: true });
    fs.rmSync(path.join(app, 'release.sig'), { force: true });
    fs.rmSync(path.join(app, 'packages/server/dist/native'), { recursive: true, force: true });
    const native = nativeHelper(root, arch, app);
    if (native.startsWith('missing')) fs.rmSync(path.join(app, 'packages/server/dist/native'), { recursive: true });
    const deps = installDeps(root, arch, scratch);
    // Same file system (both in scratch): moved, not copied.
    fs.renameSync(path.join(deps, 'node_modules'), path.join(app, 'node_modules'));
    for (const w of RUNTIME_WORKSPACES) {
      const nested = path.join(deps, w, 'node_modules');
      if (fs.existsSync(nested)) {
        fs.rmSync(path.join(nested, '.bin'), { recursive: true, force: true });
        fs.renameSync(nested, path.join(app, w, 'node_modules'));
      }
    }
    fetchNode(root, arch, nodeVersion, path.join(top, 'node'), scratch);
    const nodeStrip = stripNode(path.join(top, 'node/bin/node'), arch);
    fs.mkdirSync(path.join(top, 'bin'));
    fs.copyFileSync(path.join(HERE, 'lucky.sh'), path.join(top, 'bin/lucky'));
    fs.chmodSync(path.join(top, 'bin/lucky'), 0o755);
    fs.copyFileSync(path.join(HERE, 'install.sh'), path.join(top, 'install.sh'));
    fs.chmodSync(path.join(top, 'install.sh'), 0o755);
    fs.writeFileSync(
      path.join(top, 'README.txt'),
      fs
        .readFileSync(path.join(HERE, 'README.txt'), 'utf8')
        .replaceAll('@VERSION@', version)
        .replaceAll('@ARCH@', arch)
        .replaceAll('@NODE@', nodeVersion),
    );
    fs.writeFileSync(path.join(top, 'release.txt'), `version=${version}\narch=${arch}\nnode=${nodeVersion}\n`);

    const foreign = foreignElfFiles(top, arch);
    if (foreign.length) throw new Error(`files for another CPU in the ${arch} archive: ${foreign.join(', ')}`);

    normalise(top, sourceDate(root));
    fs.mkdirSync(outDir, { recursive: true });
    const out = path.join(outDir, `${name}.tar.gz`);
    const partial = `${out}.partial`;
    // tar writes to a pipe, gzip here (no timestamp in its header); the byte count is the unpacked size.
    const tar = spawn(
      'tar',
      ['-cf', '-', '--owner=0', '--group=0', '--numeric-owner', '--sort=name', '--format=gnu', '-C', scratch, name],
      { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const tarExit = new Promise((resolve, reject) => {
      tar.on('error', reject);
      tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
    });
    let unpacked = 0;
    tar.stdout.on('data', (c) => {
      unpacked += c.length;
    });
    await Promise.all([pipeline(tar.stdout, zlib.createGzip({ level: 6 }), fs.createWriteStream(partial)), tarExit]);
    fs.renameSync(partial, out);
    return { file: out, native, nodeStrip, size: fs.statSync(out).size, unpacked, nodeVersion };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

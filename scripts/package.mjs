#!/usr/bin/env node
// Builds the self-update package (run after `npm run build`):
//   release/lucky-console-<version>.tar.gz  →  lucky-console/{release.json, packages/*/dist/**, package.json files}
// The native helper (packages/server/native/build/sharedport.node, built by scripts/build-native.mjs)
// goes in as packages/server/dist/native/sharedport.node: the updater replaces dist/ whole, and the
// loader (core/net/sharedPort.ts) looks there first. It is machine code for this machine's CPU.
// release.json = { name, version, createdAt, files: { '<path relative to lucky-console/>': '<sha256 hex>' } }.
// The server's updater (packages/server/src/core/system/release.ts) verifies exactly this layout.
// Signing: with LUCKY_RELEASE_SIGNING_KEY set (an ed25519 private key in PEM, or the path of a
// PEM file) it also writes lucky-console/release.sig = { alg: 'ed25519', keyId, sig }, a
// detached signature of the exact release.json bytes (keyId = first 16 hex of sha256 of the
// public key's SPKI DER). Installs trust the keys in packages/server/src/core/system/releaseKeys.ts
// and <config dir>/trusted-keys/*.pem; without the variable the package is unsigned (installs
// then ask the admin to confirm a warning).
// It also builds the installable archives release/lucky-console-<version>-linux-<x64|arm64>.tar.gz
// (Node included; layout in scripts/release/archive.mjs, install script scripts/release/install.sh).
// Options: --root <repo dir> (default: this repository), --out <dir> (default: <root>/release),
// --arch <x64|arm64|all|none> (which installable archives; default none = the self-update package only; `npm run package` passes all).
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARCHES, buildArchive } from './release/archive.mjs';

const NAME = 'lucky-console';
const DIRS = ['packages/server/dist', 'packages/web/dist', 'packages/shared/dist'];
const FILES = [
  'package.json',
  'packages/server/package.json',
  'packages/web/package.json',
  'packages/shared/package.json',
];
const SKIP = /\.tsbuildinfo$/;
/** Built outside dist/ (git-ignored), carried inside it: [from, to in the package]. */
const NATIVE = ['packages/server/native/build/sharedport.node', 'packages/server/dist/native/sharedport.node'];

function fail(msg) {
  console.error(`package: ${msg}`);
  process.exit(1);
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root' || a === '--out' || a === '--arch') {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      out[a.slice(2)] = argv[++i];
    } else {
      fail(`unknown argument ${a} (use --root <dir>, --out <dir>, --arch <x64|arm64|all|none>)`);
    }
  }
  return out;
}

/** The signing key from the environment, or null (unsigned). Any problem with it stops the build. */
function signingKey() {
  const v = process.env.LUCKY_RELEASE_SIGNING_KEY?.trim();
  if (!v) return null;
  let pem = v;
  if (!v.startsWith('-----BEGIN')) {
    try {
      pem = fs.readFileSync(v, 'utf8');
    } catch (e) {
      fail(`LUCKY_RELEASE_SIGNING_KEY: cannot read ${v}: ${e.code ?? e.message}`);
    }
  }
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    fail('LUCKY_RELEASE_SIGNING_KEY is not a private key in PEM form');
  }
  if (key.asymmetricKeyType !== 'ed25519') fail('LUCKY_RELEASE_SIGNING_KEY must be an ed25519 key');
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return { key, keyId: createHash('sha256').update(der).digest('hex').slice(0, 16) };
}

const args = parseArgs(process.argv.slice(2));
const signer = signingKey();
const root = path.resolve(args.root ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const outDir = path.resolve(args.out ?? path.join(root, 'release'));
const arch = args.arch ?? 'none';
if (arch !== 'all' && arch !== 'none' && !ARCHES.includes(arch))
  fail(`--arch: "${arch}" is not x64, arm64, all or none`);
const arches = arch === 'all' ? ARCHES : arch === 'none' ? [] : [arch];

let version;
try {
  version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
} catch (e) {
  fail(`cannot read ${path.join(root, 'package.json')}: ${e.message}`);
}
if (typeof version !== 'string' || !/^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/.test(version)) {
  fail(`package.json has no usable "version" (${JSON.stringify(version)})`);
}
if (!fs.existsSync(path.join(root, 'packages/server/dist/main.js'))) {
  fail('packages/server/dist/main.js is missing: run `npm run build` first');
}
for (const d of DIRS) {
  if (!fs.statSync(path.join(root, d), { throwIfNoEntry: false })?.isDirectory()) {
    fail(`${d} is missing: run \`npm run build\` first`);
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lucky-package-'));
const top = path.join(tmp, NAME);
const files = {};

function sha256(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function copyFile(rel, to = rel) {
  const src = path.join(root, rel);
  const dst = path.join(top, to);
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  fs.copyFileSync(src, dst); // follows symlinks: the package holds regular files only
  fs.chmodSync(dst, 0o644);
  files[to.split(path.sep).join('/')] = sha256(dst);
}

function copyTree(rel) {
  const abs = path.join(root, rel);
  for (const ent of fs.readdirSync(abs)) {
    const childRel = path.join(rel, ent);
    const st = fs.statSync(path.join(abs, ent));
    if (st.isDirectory()) copyTree(childRel);
    else if (st.isFile() && !SKIP.test(ent)) copyFile(childRel);
  }
}

try {
  fs.mkdirSync(top);
  for (const d of DIRS) {
    fs.mkdirSync(path.join(top, d), { recursive: true });
    copyTree(d);
  }
  for (const f of FILES) if (fs.existsSync(path.join(root, f))) copyFile(f);
  if (fs.existsSync(path.join(root, NATIVE[0]))) copyFile(NATIVE[0], NATIVE[1]);
  else console.warn(`package: ${NATIVE[0]} is not built (no C compiler?): this package has no STUN over TCP`);

  const sorted = Object.fromEntries(
    Object.keys(files)
      .sort()
      .map((k) => [k, files[k]]),
  );
  const manifest = { name: NAME, version, createdAt: new Date().toISOString(), files: sorted };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(top, 'release.json'), manifestBytes, { mode: 0o644 });
  if (signer) {
    const sig = { alg: 'ed25519', keyId: signer.keyId, sig: sign(null, manifestBytes, signer.key).toString('base64') };
    fs.writeFileSync(path.join(top, 'release.sig'), `${JSON.stringify(sig)}\n`, { mode: 0o644 });
  }

  fs.mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, `${NAME}-${version}.tar.gz`);
  const partial = `${outFile}.partial`;
  execFileSync('tar', ['-czf', partial, '--owner=0', '--group=0', '--numeric-owner', '--sort=name', '-C', tmp, NAME], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  fs.renameSync(partial, outFile);
  const size = fs.statSync(outFile).size;
  console.log(
    `${path.relative(process.cwd(), outFile) || outFile}  ${NAME} ${version}, ${Object.keys(sorted).length} files, ${(size / 1e6).toFixed(2)} MB, ${signer ? `signed by key ${signer.keyId}` : 'UNSIGNED (set LUCKY_RELEASE_SIGNING_KEY to sign)'}`,
  );
  for (const a of arches) {
    const r = await buildArchive({ root, outDir, version, arch: a, appTree: top });
    console.log(
      `${path.relative(process.cwd(), r.file) || r.file}  install archive, Node ${r.nodeVersion}, ${(r.size / 1e6).toFixed(2)} MB (${(r.unpacked / 1e6).toFixed(1)} MB unpacked), Node binary ${r.nodeStrip}, native helper ${r.native}`,
    );
  }
} catch (e) {
  console.error(`package: ${e.message}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

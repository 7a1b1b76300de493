// Self-update from an uploaded release package (made by scripts/package.mjs):
// stage (check, extract, verify) → confirm (swap dist dirs, keep *.prev, write the update marker)
// → the supervisor restarts the worker and rolls back if the new version can't start.
// A package must carry a signature by a trusted key (releaseSignature.ts); one without (or by
// a key we do not hold) is staged only when the admin confirmed a warning, a bad one never.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import {
  checkReleaseSignature,
  loadTrustedKeys,
  SIGNATURE_FILE,
  type SignatureCheck,
  type TrustedKey,
} from './releaseSignature.js';

export const RELEASE_NAME = 'lucky-console';
/** Directories replaced by an update (relative to the install root). */
export const RELEASE_DIRS = ['packages/server/dist', 'packages/web/dist', 'packages/shared/dist'] as const;
/** Files replaced by an update when the package carries them. */
export const RELEASE_FILES = [
  'package.json',
  'packages/server/package.json',
  'packages/web/package.json',
  'packages/shared/package.json',
] as const;
/** Packages whose runtime `dependencies` must not change (node_modules is not updated). */
const RUNTIME_PACKAGE_FILES = ['packages/server/package.json', 'packages/shared/package.json'];
export const UPDATE_MARKER = '.lucky-update.json';

export interface ReleaseManifest {
  name: string;
  version: string;
  createdAt: string;
  /** '<path relative to lucky-console/>' → sha256 hex. */
  files: Record<string, string>;
}

/** installRoot/.lucky-update.json, written by confirm(), removed by rollback or by the supervisor once healthy. */
export interface UpdateMarker {
  from: string;
  to: string;
  at: string;
  /** Swapped paths; hadPrevious=false means rollback deletes the path instead of restoring it. */
  paths: { path: string; hadPrevious: boolean }[];
}

export type UpdateErrorCode =
  | 'too-large'
  | 'invalid-package'
  | 'unsafe-entry'
  | 'tampered'
  | 'bad-signature'
  | 'unsigned'
  | 'incompatible'
  | 'no-staged'
  | 'bad-key'
  | 'busy'
  | 'no-rollback'
  | 'failed';

const HTTP_STATUS: Record<UpdateErrorCode, number> = {
  'too-large': 413,
  'invalid-package': 400,
  'unsafe-entry': 400,
  tampered: 400,
  'bad-signature': 400,
  unsigned: 409,
  incompatible: 409,
  'no-staged': 404,
  'bad-key': 404,
  busy: 409,
  'no-rollback': 409,
  failed: 500,
};

export class UpdateError extends Error {
  readonly code: UpdateErrorCode;
  /** Suggested HTTP status. */
  readonly status: number;
  constructor(code: UpdateErrorCode, message: string) {
    super(message);
    this.name = 'UpdateError';
    this.code = code;
    this.status = HTTP_STATUS[code];
  }
}

export interface UpdaterOptions {
  /** Repository / install root holding packages/… (the directory with the root package.json). */
  installRoot: string;
  /** Private scratch directory for extracted packages (best on the same file system as installRoot). */
  stagingDir: string;
  /** Largest accepted upload (compressed). Default 200 MB. */
  maxBytes?: number;
  /** Largest accepted unpacked size. Default 4 × maxBytes. */
  maxUnpackedBytes?: number;
  /** A staged package is dropped after this long. Default 30 minutes. */
  ttlMs?: number;
  /** tar binary (GNU tar). Default 'tar'. */
  tar?: string;
  /** Public keys whose signatures are trusted, read at each upload. Default: the built-in keys. */
  trustedKeys?: () => Promise<readonly TrustedKey[]>;
}

export interface StageOptions {
  /** The admin confirmed the warning: a package without a trusted signature may be staged. */
  allowUnsigned?: boolean;
}

export interface StagedRelease {
  key: string;
  version: string;
  manifest: ReleaseManifest;
  /** Never `bad`: a bad signature is refused. */
  signature: Exclude<SignatureCheck, { status: 'bad' }>;
}

export interface Updater {
  stage(uploadedTarGzPath: string, opts?: StageOptions): Promise<StagedRelease>;
  confirm(key: string): Promise<{ version: string }>;
  cancel(): Promise<void>;
  rollback(): Promise<{ version: string }>;
  /** The staged package, if any (and not expired). */
  pending(): { key: string; version: string } | null;
}

const VERSION_RE = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/;
const MAX_ENTRIES = 100_000;

function run(bin: string, args: string[], maxBuffer = 64 << 20): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      args,
      { maxBuffer, timeout: 300_000, env: { ...process.env, LC_ALL: 'C' } },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${bin} ${args[0]}: ${String(stderr).trim() || err.message}`));
        else resolve(String(stdout));
      },
    );
  });
}

function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Validates a path inside the package; returns its segments or null. */
function safeSegments(p: string): string[] | null {
  if (p === '' || p.startsWith('/') || p.includes('\\') || hasControlChar(p)) return null;
  const segs = p.split('/');
  if (segs[segs.length - 1] === '') segs.pop(); // directories end with '/'
  if (segs.length === 0 || segs.some((s) => s === '' || s === '.' || s === '..')) return null;
  return segs;
}

async function gunzippedSize(file: string, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let total = 0;
    let finished = false;
    const src = createReadStream(file);
    const gz = createGunzip();
    const done = (e: Error | null) => {
      if (finished) return;
      finished = true;
      src.destroy();
      gz.destroy();
      if (e) reject(e);
      else resolve(total);
    };
    gz.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) done(new UpdateError('too-large', `the package unpacks to more than ${limit} bytes`));
    });
    gz.on('end', () => done(null));
    gz.on('error', () => done(new UpdateError('invalid-package', 'the file is not a .tar.gz release package')));
    src.on('error', (e) => done(e));
    src.pipe(gz);
  });
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
}

async function exists(p: string): Promise<boolean> {
  return (await lstat(p).catch(() => null)) !== null;
}

/** Moves a tree, copying when source and target are on different file systems. */
async function moveTree(src: string, dst: string): Promise<void> {
  try {
    await rename(src, dst);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await cp(src, dst, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
    await rm(src, { recursive: true, force: true });
  }
}

function validateManifest(raw: unknown): ReleaseManifest {
  const m = raw as Partial<ReleaseManifest> | null;
  const bad = (why: string) => new UpdateError('invalid-package', `release.json: ${why}`);
  if (!m || typeof m !== 'object') throw bad('not an object');
  if (m.name !== RELEASE_NAME) throw bad(`name must be "${RELEASE_NAME}"`);
  if (typeof m.version !== 'string' || !VERSION_RE.test(m.version)) throw bad('bad version');
  if (typeof m.createdAt !== 'string') throw bad('bad createdAt');
  if (!m.files || typeof m.files !== 'object' || Array.isArray(m.files)) throw bad('files must be an object');
  for (const [p, h] of Object.entries(m.files)) {
    if (!safeSegments(p) || p.endsWith('/') || p === 'release.json' || p === SIGNATURE_FILE)
      throw bad(`bad file path "${p}"`);
    if (typeof h !== 'string' || !/^[0-9a-f]{64}$/.test(h)) throw bad(`bad sha256 for "${p}"`);
  }
  return { name: m.name, version: m.version, createdAt: m.createdAt, files: m.files };
}

/** Version of what is installed now (root package.json), or 'unknown'. */
export async function installedVersion(installRoot: string): Promise<string> {
  try {
    const v = JSON.parse(await readFile(join(installRoot, 'package.json'), 'utf8')).version;
    return typeof v === 'string' ? v : 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function readUpdateMarker(installRoot: string): Promise<UpdateMarker | null> {
  try {
    const m = JSON.parse(await readFile(join(installRoot, UPDATE_MARKER), 'utf8')) as UpdateMarker;
    return m && typeof m === 'object' && typeof m.to === 'string'
      ? { ...m, paths: Array.isArray(m.paths) ? m.paths : [] }
      : null;
  } catch {
    return null;
  }
}

/** The supervisor calls this once the updated worker is healthy: the update is final. */
export async function clearUpdateMarker(installRoot: string): Promise<void> {
  await rm(join(installRoot, UPDATE_MARKER), { force: true });
}

/**
 * Puts the `.prev` copies back (and deletes paths the update created) and removes the marker.
 * Usable without an updater instance, e.g. from the supervisor after the new worker crashed.
 */
export async function rollbackRelease(installRoot: string): Promise<{ version: string }> {
  const marker = await readUpdateMarker(installRoot);
  const created = new Set(marker?.paths.filter((p) => !p.hadPrevious).map((p) => p.path) ?? []);
  let restored = 0;
  for (const rel of [...RELEASE_DIRS, ...RELEASE_FILES]) {
    const dst = join(installRoot, rel);
    const prev = `${dst}.prev`;
    if (await exists(prev)) {
      await rm(dst, { recursive: true, force: true });
      await rename(prev, dst);
      restored++;
    } else if (created.has(rel)) {
      await rm(dst, { recursive: true, force: true });
    }
  }
  if (restored === 0) throw new UpdateError('no-rollback', 'there is no previous version to roll back to');
  await clearUpdateMarker(installRoot);
  return { version: await installedVersion(installRoot) };
}

function sameDeps(a: unknown, b: unknown): boolean {
  const norm = (x: unknown) => {
    const d = (x as { dependencies?: Record<string, string> } | null)?.dependencies ?? {};
    return JSON.stringify(
      Object.keys(d)
        .sort()
        .map((k) => [k, d[k]]),
    );
  };
  return norm(a) === norm(b);
}

export function createUpdater(options: UpdaterOptions): Updater {
  const { installRoot, stagingDir } = options;
  const maxBytes = options.maxBytes ?? 200 * 1024 * 1024;
  const maxUnpacked = options.maxUnpackedBytes ?? maxBytes * 4;
  const ttlMs = options.ttlMs ?? 30 * 60_000;
  const tar = options.tar ?? 'tar';
  const trustedKeys = options.trustedKeys ?? (() => loadTrustedKeys());
  let staged: (StagedRelease & { dir: string; at: number }) | null = null;
  let busy = false;

  async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (busy) throw new UpdateError('busy', 'another update operation is in progress');
    busy = true;
    try {
      return await fn();
    } finally {
      busy = false;
    }
  }

  async function dropStaged(): Promise<void> {
    if (staged) await rm(staged.dir, { recursive: true, force: true });
    staged = null;
  }

  async function checkListing(file: string): Promise<void> {
    const [names, verbose] = await Promise.all([
      run(tar, ['-tzf', file, '--quoting-style=escape']),
      run(tar, ['-tzvf', file, '--quoting-style=escape']),
    ]).catch((e: Error) => {
      throw new UpdateError('invalid-package', `cannot read the package: ${e.message}`);
    });
    const n = names.split('\n').filter((l) => l !== '');
    const v = verbose.split('\n').filter((l) => l !== '');
    if (n.length !== v.length || n.length === 0) throw new UpdateError('invalid-package', 'unreadable package listing');
    if (n.length > MAX_ENTRIES) throw new UpdateError('invalid-package', 'the package has too many entries');
    for (let i = 0; i < n.length; i++) {
      const name = n[i];
      const segs = safeSegments(name);
      if (!segs || segs[0] !== RELEASE_NAME) {
        throw new UpdateError(
          'unsafe-entry',
          `refused entry "${name}": every entry must be a plain path under ${RELEASE_NAME}/`,
        );
      }
      const type = v[i][0];
      if (type !== '-' && type !== 'd') {
        const what = type === 'l' ? 'a symbolic link' : type === 'h' ? 'a hard link' : 'a special file';
        throw new UpdateError('unsafe-entry', `refused entry "${name}": ${what} (only files and folders are allowed)`);
      }
    }
  }

  async function walk(root: string, rel: string, out: string[]): Promise<void> {
    for (const ent of await readdir(join(root, rel))) {
      const r = rel ? `${rel}/${ent}` : ent;
      const st = await lstat(join(root, r));
      if (st.isDirectory()) await walk(root, r, out);
      else if (st.isFile()) out.push(r);
      else throw new UpdateError('unsafe-entry', `refused entry "${r}": only files and folders are allowed`);
    }
  }

  async function verify(dir: string): Promise<ReleaseManifest> {
    const top = await readdir(dir);
    if (top.length !== 1 || top[0] !== RELEASE_NAME) {
      throw new UpdateError('invalid-package', `the package must contain one folder "${RELEASE_NAME}"`);
    }
    const base = join(dir, RELEASE_NAME);
    const files: string[] = [];
    await walk(base, '', files);
    if (!files.includes('release.json')) throw new UpdateError('invalid-package', 'release.json is missing');
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(join(base, 'release.json'), 'utf8'));
    } catch {
      throw new UpdateError('invalid-package', 'release.json is not valid JSON');
    }
    const manifest = validateManifest(raw);
    const listed = new Set(Object.keys(manifest.files));
    for (const f of files) {
      if (f !== 'release.json' && f !== SIGNATURE_FILE && !listed.has(f))
        throw new UpdateError('tampered', `"${f}" is not listed in release.json`);
    }
    const present = new Set(files);
    for (const f of listed)
      if (!present.has(f)) throw new UpdateError('tampered', `"${f}" is listed in release.json but missing`);
    for (const f of files) {
      if (f === 'release.json' || f === SIGNATURE_FILE) continue;
      if ((await sha256File(join(base, f))) !== manifest.files[f]) {
        throw new UpdateError('tampered', `"${f}" does not match its checksum`);
      }
    }
    if (!present.has('packages/server/dist/main.js')) {
      throw new UpdateError('invalid-package', 'packages/server/dist/main.js is missing');
    }
    for (const d of RELEASE_DIRS) {
      if (!(await stat(join(base, d)).catch(() => null))?.isDirectory()) {
        throw new UpdateError('invalid-package', `${d} is missing`);
      }
    }
    for (const f of RUNTIME_PACKAGE_FILES) {
      const read = async (p: string) => JSON.parse(await readFile(p, 'utf8')) as unknown;
      const mine = await read(join(installRoot, f)).catch(() => null);
      if (mine === null || !present.has(f)) continue;
      const theirs = await read(join(base, f)).catch(() => {
        throw new UpdateError('invalid-package', `${f} is not valid JSON`);
      });
      if (!sameDeps(mine, theirs)) {
        throw new UpdateError(
          'incompatible',
          `${f}: this release needs different dependencies; install it with npm instead`,
        );
      }
    }
    return manifest;
  }

  /** Run after verify(): the manifest is known to describe every file exactly. */
  async function checkSignature(dir: string, opts: StageOptions): Promise<StagedRelease['signature']> {
    const base = join(dir, RELEASE_NAME);
    const manifestBytes = await readFile(join(base, 'release.json'));
    const sigText = await readFile(join(base, SIGNATURE_FILE), 'utf8').catch(() => null);
    const check = checkReleaseSignature(manifestBytes, sigText, await trustedKeys());
    if (check.status === 'bad') throw new UpdateError('bad-signature', `bad signature: ${check.reason}`);
    if (check.status !== 'trusted' && !opts.allowUnsigned) {
      throw new UpdateError(
        'unsigned',
        check.status === 'unsigned'
          ? 'the package is not signed; install it only if you trust where it came from (confirm to go on)'
          : `the package is signed by key ${check.keyId}, which this install does not trust; install it only if you trust where it came from (confirm to go on)`,
      );
    }
    return check;
  }

  return {
    pending() {
      if (!staged || Date.now() - staged.at > ttlMs) return null;
      return { key: staged.key, version: staged.version };
    },

    stage(uploadedTarGzPath, opts = {}) {
      return exclusive(async () => {
        const st = await stat(uploadedTarGzPath).catch(() => null);
        if (!st?.isFile()) throw new UpdateError('invalid-package', 'no uploaded file');
        if (st.size > maxBytes) throw new UpdateError('too-large', `the package is larger than ${maxBytes} bytes`);
        await gunzippedSize(uploadedTarGzPath, maxUnpacked);
        await checkListing(uploadedTarGzPath);
        await dropStaged();
        const key = randomBytes(16).toString('hex');
        const dir = join(stagingDir, key);
        await mkdir(stagingDir, { recursive: true, mode: 0o700 });
        await mkdir(dir, { mode: 0o700 });
        try {
          await run(tar, ['-xzf', uploadedTarGzPath, '-C', dir, '--no-same-owner', '--no-same-permissions']).catch(
            (e: Error) => {
              throw new UpdateError('invalid-package', `cannot unpack the package: ${e.message}`);
            },
          );
          const manifest = await verify(dir);
          const signature = await checkSignature(dir, opts);
          staged = { key, version: manifest.version, manifest, signature, dir, at: Date.now() };
          return { key, version: manifest.version, manifest, signature };
        } catch (e) {
          await rm(dir, { recursive: true, force: true });
          throw e;
        }
      });
    },

    confirm(key) {
      return exclusive(async () => {
        if (!staged || Date.now() - staged.at > ttlMs) {
          await dropStaged();
          throw new UpdateError('no-staged', 'no uploaded package is waiting (it may have expired); upload it again');
        }
        if (typeof key !== 'string' || key !== staged.key) throw new UpdateError('bad-key', 'unknown update key');
        const base = join(staged.dir, RELEASE_NAME);
        const to = staged.version;
        const from = await installedVersion(installRoot);
        const targets: string[] = [];
        for (const rel of [...RELEASE_DIRS, ...RELEASE_FILES]) if (await exists(join(base, rel))) targets.push(rel);

        // 1. bring the new trees next to their targets (may copy across file systems)
        for (const rel of targets) {
          const dst = join(installRoot, rel);
          await mkdir(dirname(dst), { recursive: true });
          await rm(`${dst}.new`, { recursive: true, force: true });
          await moveTree(join(base, rel), `${dst}.new`);
        }
        // 2. swap with renames only; undo everything on the first failure
        const done: { path: string; hadPrevious: boolean }[] = [];
        try {
          for (const rel of targets) {
            const dst = join(installRoot, rel);
            const hadPrevious = await exists(dst);
            await rm(`${dst}.prev`, { recursive: true, force: true });
            if (hadPrevious) await rename(dst, `${dst}.prev`);
            done.push({ path: rel, hadPrevious });
            await rename(`${dst}.new`, dst);
          }
        } catch (e) {
          for (const d of done.reverse()) {
            const dst = join(installRoot, d.path);
            await rm(dst, { recursive: true, force: true }).catch(() => {});
            if (d.hadPrevious) await rename(`${dst}.prev`, dst).catch(() => {});
          }
          for (const rel of targets)
            await rm(join(installRoot, `${rel}.new`), { recursive: true, force: true }).catch(() => {});
          await dropStaged();
          throw new UpdateError('failed', `could not swap the release in: ${(e as Error).message}`);
        }
        const marker: UpdateMarker = { from, to, at: new Date().toISOString(), paths: done };
        const mPath = join(installRoot, UPDATE_MARKER);
        await writeFile(`${mPath}.tmp`, `${JSON.stringify(marker, null, 2)}\n`);
        await rename(`${mPath}.tmp`, mPath);
        await dropStaged();
        return { version: to };
      });
    },

    cancel() {
      return exclusive(dropStaged);
    },

    rollback() {
      return exclusive(() => rollbackRelease(installRoot));
    },
  };
}

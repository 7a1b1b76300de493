// A local folder as a Storage (node:fs/promises). Confinement: every call resolves the root's real
// path (it may have been moved or re-mounted since the last call) and the target's real path, and
// refuses (`denied`) anything whose real location is outside the root: a symlink pointing inside is
// followed, one pointing outside is invisible (hidden from listings, `denied` everywhere). Files are
// opened with O_NOFOLLOW on the checked real path, and the open descriptor is checked once more
// (its /proc/self/fd link, or dev/ino where /proc is missing), so a component swapped for a symlink
// between the check and the open is caught for every read and write of file content.
//
// What remains (Node has no openat/renameat/unlinkat/mkdirat): mkdir, rename, unlink, rm, utimes
// and readdir act on paths, so a local user who can write inside the root and swaps a parent folder
// for a symlink in the microseconds between our check and the call can redirect that one call
// (create a folder, rename or delete an entry, set a time, list names) outside. File contents never
// leak and are never written outside: those go through checked descriptors. mkdir re-checks after.
import { randomBytes } from 'node:crypto';
import { type BigIntStats, constants, type Dirent, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as fsp from 'node:fs/promises';
import nodePath from 'node:path';
import { addAbortSignal, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkPath, MAX_NAME_BYTES, parentOf } from './paths.js';
import {
  type ReadOptions,
  type Storage,
  type StorageEntry,
  StorageError,
  type StorageErrorCode,
  type StorageSpace,
  type WriteOptions,
} from './types.js';

export interface LocalStorageOptions {
  key: string;
  /** Absolute path of the folder (symlinks in it are resolved at every call). */
  root: string;
  readOnly: boolean;
}

/** Our `replace` temp files: `.<name>.lucky-upload-<16 hex>`, hidden from listings. */
export const UPLOAD_TEMP_NAME = /^\..*\.lucky-upload-[0-9a-f]{16}$/s;
/** Deepest folder nesting a copy (or a cross-device move) walks: symlink loops end here. */
export const MAX_COPY_DEPTH = 64;

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;
// O_NONBLOCK: opening a FIFO someone left in the folder must not park a libuv thread forever;
// regular files ignore the flag.
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const LIST_CONCURRENCY = 32;
const READ_CHUNK = 256 * 1024;

const ERRNO: Record<string, StorageErrorCode> = {
  ENOENT: 'notFound',
  EEXIST: 'exists',
  ENOTEMPTY: 'exists',
  ENOTDIR: 'notDir',
  EISDIR: 'isDir',
  EACCES: 'denied',
  EPERM: 'denied',
  // O_NOFOLLOW met a symlink: one was swapped in after the check.
  ELOOP: 'denied',
  ENOSPC: 'noSpace',
  EDQUOT: 'noSpace',
  EFBIG: 'noSpace',
  EROFS: 'readOnly',
  ENAMETOOLONG: 'badPath',
  EINVAL: 'badPath',
};

const errnoOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

/** An fs error as a StorageError (a StorageError passes through). */
function mapError(e: unknown, path: string): StorageError {
  if (e instanceof StorageError) return e;
  const code = errnoOf(e);
  return new StorageError((code && ERRNO[code]) || 'failed', path, code ?? (e as Error)?.message);
}

async function fsCall<T>(path: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw mapError(e, path);
  }
}

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

const insideReal = (rootReal: string, real: string) =>
  rootReal === '/' || real === rootReal || real.startsWith(`${rootReal}/`);

function toEntry(name: string, path: string, st: BigIntStats): StorageEntry {
  const dir = st.isDirectory();
  const mtimeMs = Number(st.mtimeNs / 1_000_000n);
  const birth = Number(st.birthtimeNs / 1_000_000n);
  return {
    name,
    path,
    kind: dir ? 'dir' : 'file',
    size: dir ? 0 : Number(st.size),
    mtimeMs,
    birthtimeMs: birth > 0 ? birth : mtimeMs,
    // Size + mtime in ns + inode: a replace (new inode) or an edit in the same second changes it.
    etag: `"${st.ino.toString(36)}-${st.size.toString(36)}-${st.mtimeNs.toString(36)}"`,
  };
}

/** A name's first bytes, whole code points, for the temp name (the full name may already be 255 bytes). */
function shortName(name: string, maxBytes: number): string {
  let out = '';
  for (const ch of name) {
    if (Buffer.byteLength(out + ch, 'utf8') > maxBytes) break;
    out += ch;
  }
  return out;
}

/** Where a path was found on disk. */
interface Located {
  /** Canonical storage path. */
  p: string;
  rootReal: string;
  /** The entry's name as stored ('' for the root). */
  name: string;
  /** Absolute path of the entry itself (a symlink stays a symlink here). */
  abs: string;
  /** Absolute real path (symlinks resolved; inside the root). */
  real: string;
  /** The entry is a symlink (to somewhere inside the root). */
  link: boolean;
}

export function createLocalStorage(opts: LocalStorageOptions): Storage {
  return new LocalStorage(opts);
}

class LocalStorage implements Storage {
  readonly key: string;
  readonly kind = 'local' as const;
  readonly readOnly: boolean;
  private readonly root: string;

  constructor(opts: LocalStorageOptions) {
    this.key = opts.key;
    this.root = opts.root;
    this.readOnly = opts.readOnly;
  }

  // ---- locating ----

  private async rootReal(): Promise<string> {
    try {
      return await fsp.realpath(this.root);
    } catch (e) {
      // The errno alone: a service may pass the detail on to its client, who has no business
      // knowing where the folder lives. probe() (for the admin) names the folder.
      throw new StorageError('unreachable', '/', errnoOf(e) ?? String(e));
    }
  }

  private refuseWrites(path: string): void {
    if (this.readOnly) throw new StorageError('readOnly', path);
  }

  /**
   * The entry called `seg` in the folder `dirReal`: the exact name, else (for a name with
   * non-ASCII characters) one stored under another normalisation (a file a Mac wrote in NFD
   * is found by its NFC path). undefined when absent.
   */
  private async findName(dirReal: string, seg: string, p: string): Promise<{ name: string; lst: Stats } | undefined> {
    try {
      return { name: seg, lst: await fsp.lstat(nodePath.join(dirReal, seg)) };
    } catch (e) {
      if (errnoOf(e) !== 'ENOENT') throw mapError(e, p);
    }
    if (isAscii(seg)) return undefined;
    const names = await fsCall(p, () => fsp.readdir(dirReal));
    const name = names.find((n) => n.normalize('NFC') === seg);
    return name === undefined
      ? undefined
      : { name, lst: await fsCall(p, () => fsp.lstat(nodePath.join(dirReal, name))) };
  }

  /** The real path of an existing folder (`notFound` / `notDir` / `denied`). */
  private async dirReal(rootReal: string, p: string): Promise<string> {
    if (p === '/') return rootReal;
    try {
      const real = await fsp.realpath(nodePath.join(rootReal, p));
      if (!insideReal(rootReal, real)) throw new StorageError('denied', p, 'outsideRoot');
      return real;
    } catch (e) {
      if (errnoOf(e) !== 'ENOENT') throw mapError(e, p);
    }
    // Slow path, only when the plain path missed: walk it, matching names across normalisations.
    let cur = rootReal;
    for (const seg of p.slice(1).split('/')) {
      const found = await this.findName(cur, seg, p);
      if (found === undefined) throw new StorageError('notFound', p);
      const real = await fsCall(p, () => fsp.realpath(nodePath.join(cur, found.name)));
      if (!insideReal(rootReal, real)) throw new StorageError('denied', p, 'outsideRoot');
      cur = real;
    }
    return cur;
  }

  /** The parent folder of a path to be created: a missing or non-folder parent is `conflict`. */
  private async parentReal(rootReal: string, p: string): Promise<string> {
    try {
      const real = await this.dirReal(rootReal, parentOf(p));
      const st = await fsCall(p, () => fsp.stat(real));
      if (!st.isDirectory()) throw new StorageError('conflict', p, 'parentNotDir');
      return real;
    } catch (e) {
      if (e instanceof StorageError && (e.code === 'notFound' || e.code === 'notDir')) {
        throw new StorageError('conflict', p, 'noParent');
      }
      throw e;
    }
  }

  /** An existing entry (`notFound` otherwise; `denied` for a symlink leading outside). */
  private async existing(raw: string): Promise<Located> {
    const p = checkPath(raw);
    const rootReal = await this.rootReal();
    if (p === '/') return { p, rootReal, name: '', abs: rootReal, real: rootReal, link: false };
    const parent = await this.dirReal(rootReal, parentOf(p));
    const found = await this.maybe(rootReal, parent, p);
    if (!found) throw new StorageError('notFound', p);
    return found;
  }

  /** The entry `p` in its (located) parent, or undefined when absent. */
  private async maybe(rootReal: string, parent: string, p: string): Promise<Located | undefined> {
    const seg = p.slice(p.lastIndexOf('/') + 1);
    const found = await this.findName(parent, seg, p);
    if (found === undefined) return undefined;
    const { name, lst } = found;
    const abs = nodePath.join(parent, name);
    if (!lst.isSymbolicLink()) return { p, rootReal, name, abs, real: abs, link: false };
    let real: string;
    try {
      real = await fsp.realpath(abs);
    } catch (e) {
      // A dangling link (or a loop) names nothing we can serve.
      if (errnoOf(e) === 'ENOENT' || errnoOf(e) === 'ELOOP') throw new StorageError('notFound', p, 'danglingLink');
      throw mapError(e, p);
    }
    if (!insideReal(rootReal, real)) throw new StorageError('denied', p, 'outsideRoot');
    return { p, rootReal, name, abs, real, link: true };
  }

  /**
   * The descriptor we opened is inside the root. /proc/self/fd names the file the kernel actually
   * opened (whatever was swapped in on the way); without /proc, the descriptor's dev/ino must be
   * those of the path we checked, looked up again now (a narrower check).
   */
  private async checkOpened(h: FileHandle, rootReal: string, checked: string, p: string): Promise<void> {
    let opened: string | undefined;
    try {
      opened = await fsp.readlink(`/proc/self/fd/${h.fd}`);
    } catch {
      opened = undefined;
    }
    if (opened !== undefined) {
      if (!insideReal(rootReal, opened.replace(/ \(deleted\)$/, ''))) throw new StorageError('denied', p, 'swapped');
      return;
    }
    const [a, b] = await Promise.all([h.stat({ bigint: true }), fsp.stat(checked, { bigint: true })]);
    if (a.dev !== b.dev || a.ino !== b.ino) throw new StorageError('denied', p, 'swapped');
  }

  private async openChecked(real: string, flags: number, rootReal: string, p: string, mode?: number) {
    const h = await fsCall(p, () => fsp.open(real, flags, mode));
    try {
      await this.checkOpened(h, rootReal, real, p);
      return h;
    } catch (e) {
      await h.close().catch(() => undefined);
      throw mapError(e, p);
    }
  }

  // ---- reading ----

  async stat(raw: string): Promise<StorageEntry> {
    const loc = await this.existing(raw);
    const st = await fsCall(loc.p, () => fsp.stat(loc.real, { bigint: true }));
    if (!st.isFile() && !st.isDirectory()) throw new StorageError('denied', loc.p, 'special');
    return toEntry(loc.name, loc.p, st);
  }

  async list(raw: string, opts?: { signal?: AbortSignal }): Promise<StorageEntry[]> {
    const loc = await this.existing(raw);
    const dirents = await fsCall(loc.p, () => fsp.readdir(loc.real, { withFileTypes: true }));
    const out: StorageEntry[] = [];
    const one = async (d: Dirent): Promise<void> => {
      if (UPLOAD_TEMP_NAME.test(d.name)) return;
      let path: string;
      try {
        // A name no client could ask for (control characters, `\`, invalid UTF-8 read as U+FFFD
        // is fine but a lone surrogate is not) is left out rather than listed unreachable.
        path = checkPath(`${loc.p}/${d.name}`);
      } catch {
        return;
      }
      const abs = nodePath.join(loc.real, d.name);
      try {
        if (d.isSymbolicLink()) {
          const real = await fsp.realpath(abs);
          if (!insideReal(loc.rootReal, real)) return;
        }
        const st = await fsp.stat(abs, { bigint: true });
        if (!st.isFile() && !st.isDirectory()) return;
        out.push(toEntry(d.name, path, st));
      } catch {
        // Gone since readdir, a dangling link, no permission: not listed.
      }
    };
    for (let i = 0; i < dirents.length; i += LIST_CONCURRENCY) {
      if (opts?.signal?.aborted) throw new StorageError('failed', loc.p, 'aborted');
      await Promise.all(dirents.slice(i, i + LIST_CONCURRENCY).map(one));
    }
    return out;
  }

  async read(raw: string, opts: ReadOptions = {}): Promise<Readable> {
    const loc = await this.existing(raw);
    const start = opts.start ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new StorageError('failed', loc.p, 'badRange');
    if (opts.end !== undefined && (!Number.isSafeInteger(opts.end) || opts.end < -1)) {
      throw new StorageError('failed', loc.p, 'badRange');
    }
    const h = await this.openChecked(loc.real, READ_FLAGS, loc.rootReal, loc.p);
    let stream: Readable;
    try {
      const st = await h.stat();
      if (st.isDirectory()) throw new StorageError('isDir', loc.p);
      if (!st.isFile()) throw new StorageError('denied', loc.p, 'special');
      const end = opts.end ?? Number.POSITIVE_INFINITY;
      if (end < start || start >= st.size) {
        await h.close();
        stream = Readable.from([]);
      } else {
        stream = h.createReadStream({ start, end, highWaterMark: READ_CHUNK });
      }
    } catch (e) {
      await h.close().catch(() => undefined);
      throw mapError(e, loc.p);
    }
    if (opts.signal) addAbortSignal(opts.signal, stream);
    return stream;
  }

  // ---- writing ----

  async write(raw: string, opts: WriteOptions): Promise<Writable> {
    const p = checkPath(raw);
    this.refuseWrites(p);
    if (p === '/') throw new StorageError('isDir', p);
    const rootReal = await this.rootReal();
    const parent = await this.parentReal(rootReal, p);
    const found = await this.maybe(rootReal, parent, p);
    let target: string;
    let existingMode: number | undefined;
    let existingSize = 0;
    if (found) {
      const st = await fsCall(p, () => fsp.stat(found.real));
      if (st.isDirectory()) throw new StorageError('isDir', p);
      if (!st.isFile()) throw new StorageError('denied', p, 'special');
      if (opts.mode === 'create') throw new StorageError('exists', p);
      target = found.real;
      existingMode = st.mode & 0o7777;
      existingSize = st.size;
    } else {
      target = nodePath.join(parent, p.slice(p.lastIndexOf('/') + 1));
    }
    let w: FileWriter;
    switch (opts.mode) {
      case 'create': {
        const h = await this.openChecked(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, rootReal, p, 0o666);
        // Nothing was there before: an abandoned create leaves nothing either.
        w = new FileWriter(h, 0, p, { abort: () => fsp.unlink(target) });
        break;
      }
      case 'append': {
        const h = await this.openChecked(
          target,
          O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK,
          rootReal,
          p,
          0o666,
        );
        // What arrived before an abort stays: appending is how a client resumes.
        w = new FileWriter(h, null, p, {});
        break;
      }
      case 'offset': {
        const offset = opts.offset ?? 0;
        if (!Number.isSafeInteger(offset) || offset < 0) throw new StorageError('failed', p, 'badOffset');
        if (!found && offset > 0) throw new StorageError('notFound', p);
        if (offset > existingSize) throw new StorageError('failed', p, 'offsetBeyondEnd');
        const flags = found ? O_RDWR | O_NOFOLLOW | O_NONBLOCK : O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW;
        const h = await this.openChecked(target, flags, rootReal, p, 0o666);
        // An abort keeps what was written (REST resumes from it); a finish cuts the old tail off.
        w = new FileWriter(h, offset, p, { finish: (pos) => h.truncate(pos) });
        break;
      }
      case 'replace': {
        const dir = nodePath.dirname(target);
        const base = nodePath.basename(target);
        const temp = nodePath.join(
          dir,
          `.${shortName(base, MAX_NAME_BYTES - 40)}.lucky-upload-${randomBytes(8).toString('hex')}`,
        );
        const h = await this.openChecked(
          temp,
          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
          rootReal,
          p,
          existingMode ?? 0o666,
        );
        // Readers see the old file until the rename, then the new one, never half. No fsync: a
        // power cut may lose the new content (ext4's rename heuristics flush it in practice), but
        // an fsync per PUT of many small files would cost more than it buys on a home NAS.
        w = new FileWriter(h, 0, p, {
          afterClose: () => fsp.rename(temp, target),
          abort: () => fsp.unlink(temp),
        });
        break;
      }
      default:
        throw new StorageError('failed', p, 'badMode');
    }
    if (opts.signal) addAbortSignal(opts.signal, w);
    return w;
  }

  async mkdir(raw: string): Promise<void> {
    const p = checkPath(raw);
    this.refuseWrites(p);
    if (p === '/') throw new StorageError('exists', p);
    const rootReal = await this.rootReal();
    const parent = await this.parentReal(rootReal, p);
    if (await this.maybe(rootReal, parent, p).catch(() => true)) throw new StorageError('exists', p);
    const abs = nodePath.join(parent, p.slice(p.lastIndexOf('/') + 1));
    await fsCall(p, () => fsp.mkdir(abs));
    // mkdir acts on a path (see the top): if a swapped parent put it outside, take it back.
    const real = await fsCall(p, () => fsp.realpath(abs));
    if (!insideReal(rootReal, real)) {
      await fsp.rmdir(real).catch(() => undefined);
      throw new StorageError('denied', p, 'swapped');
    }
  }

  /** A move's or copy's target: its located parent and what is there now (undefined: nothing). */
  private async target(rootReal: string, raw: string) {
    const p = checkPath(raw);
    if (p === '/') throw new StorageError('exists', p);
    const parent = await this.parentReal(rootReal, p);
    const found = await this.maybe(rootReal, parent, p);
    const abs = found?.abs ?? nodePath.join(parent, p.slice(p.lastIndexOf('/') + 1));
    return { p, parent, found, abs };
  }

  async move(from: string, to: string, opts: { overwrite: boolean }): Promise<void> {
    this.refuseWrites(checkPath(from));
    const src = await this.existing(from);
    if (src.p === '/') throw new StorageError('denied', src.p, 'root');
    const dst = await this.target(src.rootReal, to);
    if (dst.abs === src.abs) return;
    const srcIsDir = !src.link && (await fsCall(src.p, () => fsp.stat(src.abs))).isDirectory();
    // A folder into itself or below itself (real paths, so a link to it inside counts too).
    if (srcIsDir && (dst.parent === src.real || dst.parent.startsWith(`${src.real}/`))) {
      throw new StorageError('conflict', dst.p, 'intoItself');
    }
    if (dst.found) {
      if (!opts.overwrite) throw new StorageError('exists', dst.p);
      const dstSt = await fsCall(dst.p, () => fsp.lstat(dst.found?.abs ?? dst.abs));
      const srcSt = await fsCall(src.p, () => fsp.lstat(src.abs));
      const sameEntry = dstSt.ino === srcSt.ino && dstSt.dev === srcSt.dev;
      // File over file is one atomic rename; anything with a folder in it needs the old one gone.
      // The same entry under another spelling (case, normalisation) is renamed as it is.
      if (!sameEntry && (dstSt.isDirectory() || srcIsDir)) {
        await fsCall(dst.p, () => fsp.rm(dst.abs, { recursive: true }));
      }
    }
    try {
      await fsp.rename(src.abs, dst.abs);
    } catch (e) {
      if (errnoOf(e) !== 'EXDEV') throw mapError(e, dst.p);
      // The root spans file systems (a disk mounted inside it): copy, then delete the original.
      if (dst.found) await fsCall(dst.p, () => fsp.rm(dst.abs, { recursive: true, force: true }));
      await this.copyAny(src.rootReal, src.real, dst.abs, true, dst.p, 0);
      await fsCall(src.p, () => fsp.rm(src.abs, { recursive: true }));
    }
  }

  async copy(from: string, to: string, opts: { overwrite: boolean; recursive: boolean }): Promise<void> {
    this.refuseWrites(checkPath(from));
    const src = await this.existing(from);
    const dst = await this.target(src.rootReal, to);
    const st = await fsCall(src.p, () => fsp.stat(src.real));
    if (
      st.isDirectory() &&
      (dst.abs === src.real || dst.parent === src.real || dst.parent.startsWith(`${src.real}/`))
    ) {
      throw new StorageError('conflict', dst.p, 'intoItself');
    }
    if (dst.found) {
      if (!opts.overwrite) throw new StorageError('exists', dst.p);
      if (dst.found.real === src.real) throw new StorageError('conflict', dst.p, 'ontoItself');
      await fsCall(dst.p, () => fsp.rm(dst.abs, { recursive: true }));
    }
    await this.copyAny(src.rootReal, src.real, dst.abs, opts.recursive, dst.p, 0);
  }

  /** Copy what is at `srcReal` (a checked real path) to `dstAbs` (absent, parent checked). */
  private async copyAny(
    rootReal: string,
    srcReal: string,
    dstAbs: string,
    recursive: boolean,
    p: string,
    depth: number,
  ) {
    if (depth > MAX_COPY_DEPTH) throw new StorageError('failed', p, 'tooDeep');
    const st = await fsCall(p, () => fsp.stat(srcReal));
    if (st.isFile()) return this.copyFile(rootReal, srcReal, dstAbs, st.mode & 0o7777, p);
    if (!st.isDirectory()) return;
    await fsCall(p, () => fsp.mkdir(dstAbs));
    if (!recursive) return;
    for (const d of await fsCall(p, () => fsp.readdir(srcReal, { withFileTypes: true }))) {
      if (UPLOAD_TEMP_NAME.test(d.name)) continue;
      let real = nodePath.join(srcReal, d.name);
      if (d.isSymbolicLink()) {
        // Links are copied as what they point to, and only when that is inside: a link copied as a
        // link could point elsewhere from its new place.
        try {
          real = await fsp.realpath(real);
        } catch {
          continue;
        }
        if (!insideReal(rootReal, real)) continue;
      }
      await this.copyAny(rootReal, real, nodePath.join(dstAbs, d.name), true, p, depth + 1);
    }
  }

  // Through checked descriptors rather than fs.copyFile (which follows a path): a link swapped in
  // cannot make us copy a file from outside into the storage.
  private async copyFile(rootReal: string, srcReal: string, dstAbs: string, mode: number, p: string) {
    const from = await this.openChecked(srcReal, READ_FLAGS, rootReal, p);
    let to: FileHandle;
    try {
      to = await this.openChecked(dstAbs, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, rootReal, p, mode);
    } catch (e) {
      await from.close().catch(() => undefined);
      throw e;
    }
    try {
      await pipeline(from.createReadStream({ highWaterMark: READ_CHUNK }), to.createWriteStream());
    } catch (e) {
      await from.close().catch(() => undefined);
      await to.close().catch(() => undefined);
      await fsp.unlink(dstAbs).catch(() => undefined);
      throw mapError(e, p);
    }
  }

  async delete(raw: string): Promise<void> {
    this.refuseWrites(checkPath(raw));
    const loc = await this.existing(raw);
    if (loc.p === '/') throw new StorageError('denied', loc.p, 'root');
    // A symlink goes itself (never what it points to); rm does not follow links below a folder.
    await fsCall(loc.p, () => fsp.rm(loc.abs, { recursive: true }));
  }

  async setMtime(raw: string, mtimeMs: number): Promise<void> {
    this.refuseWrites(checkPath(raw));
    if (!Number.isFinite(mtimeMs)) throw new StorageError('failed', raw, 'badTime');
    const loc = await this.existing(raw);
    const st = await fsCall(loc.p, () => fsp.stat(loc.real));
    await fsCall(loc.p, () => fsp.utimes(loc.real, st.atime, new Date(mtimeMs)));
  }

  // ---- the storage as a whole ----

  async space(): Promise<StorageSpace> {
    const rootReal = await this.rootReal();
    const s = await fsCall('/', () => fsp.statfs(rootReal));
    return { total: s.blocks * s.bsize, free: s.bavail * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  }

  async probe(): Promise<void> {
    let rootReal: string;
    try {
      rootReal = await fsp.realpath(this.root);
    } catch (e) {
      throw new StorageError('unreachable', '/', `${errnoOf(e) ?? String(e)}: ${this.root}`);
    }
    try {
      const st = await fsp.stat(rootReal);
      if (!st.isDirectory()) throw new StorageError('unreachable', '/', `ENOTDIR: ${this.root}`);
      await fsp.access(rootReal, constants.R_OK | constants.X_OK | (this.readOnly ? 0 : constants.W_OK));
    } catch (e) {
      if (e instanceof StorageError) throw e;
      throw new StorageError('unreachable', '/', `${errnoOf(e) ?? String(e)}: ${this.root}`);
    }
  }

  async close(): Promise<void> {
    // Nothing held between calls.
  }
}

interface WriterHooks {
  /** Before the handle closes, with the position reached (offset mode truncates here). */
  finish?: (pos: number) => Promise<void>;
  /** After the handle closed at finish (replace renames here). */
  afterClose?: () => Promise<unknown>;
  /** After the handle closed on an error or destroy. */
  abort?: () => Promise<unknown>;
}

/** A Writable into an open file at a position (null: appending), finishing through the hooks. */
class FileWriter extends Writable {
  private done = false;

  constructor(
    private readonly h: FileHandle,
    private pos: number | null,
    private readonly p: string,
    private readonly hooks: WriterHooks,
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  private async writeAll(bufs: Buffer[]): Promise<void> {
    let rest = bufs.filter((b) => b.length > 0);
    while (rest.length > 0) {
      const { bytesWritten } = await this.h.writev(rest, this.pos ?? undefined);
      if (this.pos !== null) this.pos += bytesWritten;
      // A short write (rare, near a full disk): go on after what was written.
      let n = bytesWritten;
      while (rest.length > 0 && n >= rest[0].length) n -= rest.shift()?.length ?? 0;
      if (rest.length > 0 && n > 0) rest = [rest[0].subarray(n), ...rest.slice(1)];
      else if (bytesWritten === 0) throw new StorageError('noSpace', this.p, 'shortWrite');
    }
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.writeAll([chunk]).then(
      () => cb(),
      (e) => cb(mapError(e, this.p)),
    );
  }

  override _writev(chunks: { chunk: Buffer }[], cb: (e?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(
      () => cb(),
      (e) => cb(mapError(e, this.p)),
    );
  }

  override _final(cb: (e?: Error | null) => void): void {
    (async () => {
      if (this.hooks.finish) await this.hooks.finish(this.pos ?? 0);
      await this.h.close();
      this.done = true;
      if (this.hooks.afterClose) await this.hooks.afterClose();
    })().then(
      () => cb(),
      (e) => {
        this.done = false;
        cb(mapError(e, this.p));
      },
    );
  }

  override _destroy(err: Error | null, cb: (e?: Error | null) => void): void {
    if (this.done) {
      cb(err);
      return;
    }
    this.done = true;
    (async () => {
      await this.h.close().catch(() => undefined);
      await this.hooks.abort?.().catch(() => undefined);
    })().then(() => cb(err));
  }
}

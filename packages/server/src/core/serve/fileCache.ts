import { promises as fs } from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';

/**
 * What the file server knows about one requested path under one mount: where it
 * really is (symlinks resolved and confined to the mount), what it is, and for
 * small files their bytes. Entries are trusted for `FRESH_MS`, then checked again
 * (realpath + stat) before use: a busy site answers most requests without a
 * single system call, and a changed file shows within a second (like nginx's
 * open_file_cache with a one-second validity).
 */
export interface FileEntry {
  kind: 'file' | 'dir' | 'missing' | 'outside';
  /** Real path (for `file` and `dir`). */
  real: string;
  size: number;
  mtimeMs: number;
  ino: number;
  etag: string;
  lastModified: string;
  contentType: string;
  /** The whole file when it is small. */
  body?: Buffer;
  checkedAt: number;
}

export const FRESH_MS = 1000;
/** Files up to this size are kept in memory. */
export const SMALL_FILE_BYTES = 64 * 1024;
const MAX_ENTRIES = 4096;
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Inside `root` (both real paths)? */
export const inside = (root: string, p: string) =>
  p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

const missing = (kind: 'missing' | 'outside'): Omit<FileEntry, 'checkedAt'> => ({
  kind,
  real: '',
  size: 0,
  mtimeMs: 0,
  ino: 0,
  etag: '',
  lastModified: '',
  contentType: '',
});

async function resolve(dir: string, segments: string[]): Promise<Omit<FileEntry, 'checkedAt'>> {
  let root: string;
  let real: string;
  try {
    root = await fs.realpath(dir);
    const joined = path.join(root, ...segments);
    if (!inside(root, joined)) return missing('outside');
    real = await fs.realpath(joined);
  } catch {
    return missing('missing');
  }
  if (!inside(root, real)) return missing('outside');
  const st = await fs.stat(real).catch(() => undefined);
  if (!st || (!st.isFile() && !st.isDirectory())) return missing('missing');
  return {
    kind: st.isDirectory() ? 'dir' : 'file',
    real,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ino: st.ino,
    // Same shape as most servers' weak validators: size and modification time.
    etag: `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`,
    lastModified: st.mtime.toUTCString(),
    contentType: st.isFile() ? contentTypeOf(real) : '',
  };
}

/** The Content-Type served for a file name (by its extension; text types with their charset). */
export function contentTypeOf(file: string): string {
  const type = mime.lookup(file) || 'application/octet-stream';
  const charset = mime.charset(type);
  return charset ? `${type}; charset=${charset.toLowerCase()}` : type;
}

export class FileCache {
  private entries = new Map<string, FileEntry>();
  private pending = new Map<string, Promise<FileEntry>>();
  private bodyBytes = 0;

  /** The entry for `segments` under the mount directory `dir`, checked at most `FRESH_MS` ago. */
  lookup(dir: string, segments: string[], now = Date.now()): FileEntry | Promise<FileEntry> {
    const key = `${dir}\0${segments.join('/')}`;
    const hit = this.entries.get(key);
    if (hit && now - hit.checkedAt < FRESH_MS) return hit;
    let p = this.pending.get(key);
    if (!p) {
      p = this.refresh(key, dir, segments, hit).finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  private async refresh(key: string, dir: string, segments: string[], old?: FileEntry): Promise<FileEntry> {
    const found = await resolve(dir, segments);
    const entry: FileEntry = { ...found, checkedAt: Date.now() };
    const same = old && old.real === entry.real && old.size === entry.size && old.mtimeMs === entry.mtimeMs;
    if (entry.kind === 'file' && entry.size <= SMALL_FILE_BYTES) {
      if (same && old.body && old.ino === entry.ino) entry.body = old.body;
      else entry.body = await fs.readFile(entry.real).catch(() => undefined);
      // A file that changed while it was read: serve it from disk this time, look again next time.
      if (entry.body && entry.body.length !== entry.size) entry.body = undefined;
    }
    this.store(key, entry);
    return entry;
  }

  private store(key: string, entry: FileEntry): void {
    const old = this.entries.get(key);
    if (old) {
      this.bodyBytes -= old.body?.length ?? 0;
      this.entries.delete(key); // re-insert: Map order is the eviction order (oldest first)
    }
    this.entries.set(key, entry);
    this.bodyBytes += entry.body?.length ?? 0;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bodyBytes <= MAX_BODY_BYTES) break;
      this.entries.delete(k);
      this.bodyBytes -= e.body?.length ?? 0;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bodyBytes = 0;
  }
}

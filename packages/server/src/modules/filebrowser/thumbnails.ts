import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Storage, StorageEntry } from '../../core/storage/types.js';

type Sharp = typeof import('sharp')['default'];
let loading: Promise<Sharp> | undefined;

/**
 * sharp, loaded with the first thumbnail: libvips costs ~25 MB resident, which an idle console
 * (budget 80 MB) does not pay. One libvips thread per image: the worker count below is the whole
 * CPU thumbnails take; its decoded-image cache is off (a browsing session does not ask for the
 * same original twice; the answers are cached on disk instead).
 */
function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((m) => {
    const sharp = m.default;
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/** Larger images are refused before decoding (a decompression bomb fits in a few kB). */
export const THUMB_MAX_INPUT_PIXELS = 100_000_000;
/** Originals above this are not read for a thumbnail (the grid shows the type icon). */
export const THUMB_MAX_INPUT_BYTES = 256 * 1024 * 1024;

export interface ThumbnailLimits {
  cacheBytes: number;
  workers: number;
}

/** A made (or cached) thumbnail: a WebP file in the cache folder. */
export interface Thumbnail {
  file: string;
  size: number;
}

/** Why there is no thumbnail: the client went away, or the decoder failed (its words). */
export class ThumbnailError extends Error {
  constructor(
    readonly why: 'aborted' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

interface Job {
  run: () => Promise<void>;
  /** Whether anyone still waits for it (checked when a worker comes free). */
  wanted: () => boolean;
  drop: () => void;
}

interface Pending {
  promise: Promise<Thumbnail>;
  waiters: AbortSignal[];
}

/**
 * Thumbnails made lazily and cached on disk under `dir`, keyed by storage, path, ETag and size
 * (a changed file has a new ETag, so a stale thumbnail is never served; it ages out). The cache is
 * bounded by total bytes, least recently used first; at most `workers` are made at once and a
 * queued one whose every client went away is dropped unmade.
 */
export class Thumbnails {
  /** Cached files, least recently used first (a Map keeps insertion order). */
  private readonly index = new Map<string, number>();
  private total = 0;
  private loaded: Promise<void> | undefined;
  private readonly queue: Job[] = [];
  private running = 0;
  private readonly pending = new Map<string, Pending>();

  constructor(
    readonly dir: string,
    private readonly limits: () => ThumbnailLimits,
  ) {}

  /** Cached thumbnails (count, bytes) and the work: being made now, waiting for a worker. */
  stats(): { files: number; bytes: number; running: number; queued: number } {
    return { files: this.index.size, bytes: this.total, running: this.running, queued: this.queue.length };
  }

  /**
   * The thumbnail of `entry` (a file of `storage`) whose longer side is at most `size` pixels:
   * from the cache, or made now (queued behind the busy workers).
   */
  async get(storage: Storage, entry: StorageEntry, size: number, signal: AbortSignal): Promise<Thumbnail> {
    await this.load();
    const key = createHash('sha256')
      .update(`${storage.key}\n${entry.path}\n${entry.etag}\n${size}`)
      .digest('hex')
      .slice(0, 40);
    const file = path.join(this.dir, `${key}.webp`);
    const cached = this.index.get(key);
    if (cached !== undefined) {
      this.index.delete(key);
      this.index.set(key, cached);
      return { file, size: cached };
    }
    let p = this.pending.get(key);
    if (p) p.waiters.push(signal);
    else {
      const waiters = [signal];
      const promise = this.schedule(
        () => waiters.some((s) => !s.aborted),
        () => this.make(storage, entry, size, key, file),
      ).finally(() => this.pending.delete(key));
      p = { promise, waiters };
      this.pending.set(key, p);
    }
    return abortable(p.promise, signal);
  }

  private schedule(wanted: () => boolean, make: () => Promise<Thumbnail>): Promise<Thumbnail> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        wanted,
        drop: () => reject(new ThumbnailError('aborted', 'nobody waits for it')),
        run: () => make().then(resolve, reject),
      });
      this.next();
    });
  }

  private next(): void {
    while (this.running < Math.max(1, this.limits().workers) && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      if (!job.wanted()) {
        job.drop();
        continue;
      }
      this.running++;
      job.run().finally(() => {
        this.running--;
        this.next();
      });
    }
  }

  private async make(storage: Storage, entry: StorageEntry, size: number, key: string, file: string) {
    if (entry.size > THUMB_MAX_INPUT_BYTES)
      throw new ThumbnailError('failed', `larger than ${THUMB_MAX_INPUT_BYTES} bytes`);
    const sharp = await loadSharp();
    const input = await storage.read(entry.path);
    const pipeline = sharp({ limitInputPixels: THUMB_MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true })
      // The camera's orientation first, so portrait photos stand upright.
      .rotate()
      .resize(size, size, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75, effort: 2 });
    input.on('error', (err) => pipeline.destroy(err));
    input.pipe(pipeline);
    let data: Buffer;
    try {
      data = await pipeline.toBuffer();
    } catch (err) {
      input.destroy();
      throw new ThumbnailError('failed', (err as Error).message);
    }
    // Written beside and renamed, so a reader never sees half a thumbnail.
    const tmp = path.join(this.dir, `.${key}.${randomBytes(4).toString('hex')}.tmp`);
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
    this.index.set(key, data.length);
    this.total += data.length;
    await this.evict(key);
    return { file, size: data.length };
  }

  /** Oldest first until the cache fits (never the one just made). */
  private async evict(keep: string): Promise<void> {
    const max = this.limits().cacheBytes;
    for (const [key, bytes] of this.index) {
      if (this.total <= max) break;
      if (key === keep) continue;
      this.index.delete(key);
      this.total -= bytes;
      await fs.rm(path.join(this.dir, `${key}.webp`), { force: true });
    }
  }

  /** The cache as it is on disk (oldest access first), once; leftover temp files go. */
  private load(): Promise<void> {
    this.loaded ??= (async () => {
      await fs.mkdir(this.dir, { recursive: true });
      const found: { key: string; size: number; atimeMs: number }[] = [];
      for (const name of await fs.readdir(this.dir)) {
        const p = path.join(this.dir, name);
        const m = /^([0-9a-f]{40})\.webp$/.exec(name);
        if (!m) {
          if (name.endsWith('.tmp')) await fs.rm(p, { force: true });
          continue;
        }
        const st = await fs.stat(p).catch(() => undefined);
        if (st?.isFile()) found.push({ key: m[1], size: st.size, atimeMs: Math.max(st.atimeMs, st.mtimeMs) });
      }
      found.sort((a, b) => a.atimeMs - b.atimeMs);
      for (const f of found) {
        this.index.set(f.key, f.size);
        this.total += f.size;
      }
    })();
    return this.loaded;
  }
}

/** `p`, or a rejection as soon as `signal` aborts (the work behind `p` may go on for others). */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ThumbnailError('aborted', 'client went away'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ThumbnailError('aborted', 'client went away'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

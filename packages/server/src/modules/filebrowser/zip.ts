import type { Readable } from 'node:stream';
import { type ZipEntry, zipWriter } from '../../core/archive/zipWriter.js';
import type { Storage, StorageEntry } from '../../core/storage/types.js';

/** Folders deeper than this are left out. */
const MAX_DEPTH = 64;

/**
 * A streamed zip of `entries` (files and folders of one storage; folders with everything below
 * them): stored, not compressed (photos and videos do not shrink, and the CPU stays free), ZIP64
 * where a file or the archive passes 4 GiB (`core/archive/zipWriter.ts`, CRC-32 by Node's native
 * zlib). Nothing is buffered beyond the streams' own windows: the folders are walked with `list`
 * as the client takes the bytes, and each file is opened only when the archive reaches it, so one
 * file is open at a time. Aborting `signal` (the client went away) stops the walk and the open
 * read. A failure after the first byte destroys the stream (the client sees a cut download, never
 * a zip that looks whole).
 */
export function zipStream(
  storage: Storage,
  entries: StorageEntry[],
  signal: AbortSignal,
  /** `true` once every entry went out (a share link counts the download then), `false` on a failure. */
  onDone?: (complete: boolean) => void,
): Readable {
  const file = (e: StorageEntry, name: string): ZipEntry => ({
    kind: 'file',
    name,
    mtime: new Date(e.mtimeMs),
    mode: 0o100644,
    size: e.size,
    open: () => storage.read(e.path, { signal }),
  });

  async function* walk(dir: StorageEntry, name: string, depth: number): AsyncGenerator<ZipEntry> {
    // A loop of symlinks that a storage follows cannot hang the walk.
    if (depth > MAX_DEPTH) return;
    yield { kind: 'dir', name, mtime: new Date(dir.mtimeMs) };
    const children = await storage.list(dir.path, { signal });
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const c of children) {
      signal.throwIfAborted();
      if (c.kind === 'dir') yield* walk(c, `${name}${c.name}/`, depth + 1);
      else yield file(c, `${name}${c.name}`);
    }
  }

  async function* all(): AsyncGenerator<ZipEntry> {
    for (const e of entries) {
      signal.throwIfAborted();
      if (e.kind === 'dir') yield* walk(e, `${e.name}/`, 0);
      else yield file(e, e.name);
    }
  }

  const out = zipWriter(all());
  let settled = false;
  const settle = (complete: boolean) => {
    if (settled) return;
    settled = true;
    onDone?.(complete);
  };
  out.once('end', () => settle(true));
  // An error, or the stream destroyed before its end (the client went away): not complete.
  out.once('close', () => settle(false));
  return out;
}

import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Storage, StorageEntry } from '../../core/storage/types.js';

/**
 * A streamed zip of `entries` (files and folders of one storage; folders with everything below
 * them): stored, not compressed (photos and videos do not shrink, and the CPU stays free), ZIP64
 * where a file or the archive passes 4 GiB. Nothing is buffered beyond the streams' own windows:
 * the folders are walked with `list` as the archive goes, and each file is opened only when yazl
 * reaches it (`addReadStreamLazy`), so one file is open at a time. Aborting `signal` (the client
 * went away) stops the walk and the open read. A failure after the first byte destroys the stream
 * (the client sees a cut download, never a zip that looks whole).
 */
export function zipStream(storage: Storage, entries: StorageEntry[], signal: AbortSignal): Readable {
  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  const fail = (err: unknown) => {
    if (!out.destroyed) out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  zip.on('error', fail);

  const add = (e: StorageEntry, name: string): void => {
    const mtime = new Date(e.mtimeMs);
    if (e.kind === 'dir') {
      zip.addEmptyDirectory(name, { mtime });
      return;
    }
    zip.addReadStreamLazy(name, { mtime, compress: false, size: e.size, mode: 0o100644 }, (cb) => {
      storage.read(e.path, { signal }).then(
        (stream) => cb(null, stream),
        (err) => cb(err, undefined as unknown as Readable),
      );
    });
  };

  const walk = async (dir: StorageEntry, name: string): Promise<void> => {
    add(dir, name);
    const children = await storage.list(dir.path, { signal });
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const c of children) {
      if (signal.aborted) return;
      if (c.kind === 'dir') await walk(c, `${name}${c.name}/`);
      else add(c, `${name}${c.name}`);
    }
  };

  (async () => {
    for (const e of entries) {
      if (signal.aborted) return;
      if (e.kind === 'dir') await walk(e, `${e.name}/`);
      else add(e, e.name);
    }
    zip.end();
  })().catch(fail);
  return out;
}

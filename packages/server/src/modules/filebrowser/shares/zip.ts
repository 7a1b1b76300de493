// A folder of a storage as a streamed zip (yazl: stored entries, ZIP64 when sizes ask for it), for
// the share link's "download all". The tree is walked while the archive streams and each file is
// opened only when its turn comes, so memory stays flat and no temporary archive is written.
// (The file manager's own zip download lives with the browse routes; this one serves share links.)
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Storage } from '../../../core/storage/types.js';

/** Folders deeper than this are left out (a loop of symlinks that the storage follows cannot hang the walk). */
const MAX_DEPTH = 64;

/**
 * The archive of `dir` (its content at the archive's top). `onDone(true)` once every entry was
 * written; `onDone(false)` when the walk or a read failed (the stream is destroyed then).
 */
export function zipFolder(
  storage: Storage,
  dir: string,
  signal: AbortSignal,
  onDone: (complete: boolean) => void,
): Readable {
  const zip = new ZipFile();
  const out = zip.outputStream as Readable;
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    onDone(false);
  };
  zip.on('error', fail);
  const walk = async (path: string, prefix: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    const entries = await storage.list(path, { signal });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (failed || signal.aborted) return;
      const name = `${prefix}${e.name}`;
      const mtime = new Date(e.mtimeMs);
      if (e.kind === 'dir') {
        zip.addEmptyDirectory(name, { mtime });
        await walk(e.path, `${name}/`, depth + 1);
      } else {
        zip.addReadStreamLazy(name, { mtime, size: e.size, compress: false }, (cb) => {
          storage.read(e.path, { signal }).then(
            (s) => cb(null, s),
            (err) => cb(err, undefined as unknown as NodeJS.ReadableStream),
          );
        });
      }
    }
  };
  walk(dir, '', 0).then(
    () => {
      if (failed) return;
      out.once('end', () => onDone(true));
      zip.end();
    },
    (err) => fail(err),
  );
  return out;
}

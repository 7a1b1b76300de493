import { type Storage, StorageError } from '../../../core/storage/types.js';
import { joinPath } from '../storageAccess.js';
import type { UploadState } from './state.js';

/** Names tried for `keepBoth` before giving up (`name (1).ext` … `name (999).ext`). */
const KEEP_BOTH_TRIES = 999;

export interface FinishedUpload {
  result: 'done' | 'skipped';
  /** Where the file is now (done), or the name that was taken (skipped). */
  path: string;
}

/** `a.jpg` → `a (n).jpg`; a leading dot is part of the name (`.bashrc (1)`). */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

const taken = (err: unknown) => err instanceof StorageError && err.code === 'exists';

/**
 * Puts a complete partial file in place by the upload's conflict policy: `skip` drops it when the
 * name is taken, `replace` overwrites a file (never a folder), `keepBoth` takes the first free
 * `name (n).ext`. Then the modification time the browser sent.
 */
export async function putInPlace(storage: Storage, s: UploadState): Promise<FinishedUpload> {
  const target = joinPath(s.dir, s.name);
  const there = await storage.stat(target).catch((err) => {
    if (err instanceof StorageError && err.code === 'notFound') return undefined;
    throw err;
  });
  let path = target;
  if (!there) {
    try {
      await storage.move(s.part, target, { overwrite: false });
    } catch (err) {
      // Made by someone else since the stat: decide as if it had been there.
      if (!taken(err)) throw err;
      return putInPlace(storage, s);
    }
  } else if (s.conflict === 'skip') {
    await storage.delete(s.part);
    return { result: 'skipped', path: target };
  } else if (s.conflict === 'replace') {
    if (there.kind === 'dir') throw new StorageError('isDir', target);
    await storage.move(s.part, target, { overwrite: true });
  } else {
    path = await moveToFreeName(storage, s);
  }
  if (s.mtime !== undefined) await storage.setMtime(path, s.mtime).catch(() => undefined);
  return { result: 'done', path };
}

async function moveToFreeName(storage: Storage, s: UploadState): Promise<string> {
  for (let n = 1; n <= KEEP_BOTH_TRIES; n++) {
    const candidate = joinPath(s.dir, numberedName(s.name, n));
    try {
      await storage.move(s.part, candidate, { overwrite: false });
      return candidate;
    } catch (err) {
      if (!taken(err)) throw err;
    }
  }
  throw new StorageError('exists', joinPath(s.dir, s.name));
}

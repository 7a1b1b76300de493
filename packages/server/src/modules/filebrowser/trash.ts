import { type Storage, StorageError } from '../../core/storage/types.js';
import { freeName, isWithin, namesIn } from './transfer.js';

/** Each storage's trash: a folder at its root (hidden by its dot on most clients). */
export const TRASH_DIR = '/.trash';

/** Whether a delete of `path` is for good even with the trash on: the trash and what is in it. */
export const inTrash = (path: string): boolean => isWithin(path, TRASH_DIR);

/**
 * Moves `path` (a file or a folder) into the storage's trash, made when missing; a name already
 * there gets ` (1)` … as keepBoth does. The name it got.
 */
export async function moveToTrash(storage: Storage, path: string, name: string, kind: 'file' | 'dir'): Promise<string> {
  try {
    await storage.mkdir(TRASH_DIR);
  } catch (err) {
    if (!(err instanceof StorageError && err.code === 'exists')) throw err;
  }
  const taken = await namesIn(storage, TRASH_DIR);
  const as = freeName(name, kind, (n) => taken.has(n.normalize('NFC')));
  await storage.move(path, `${TRASH_DIR}/${as}`, { overwrite: false });
  return as;
}

import { pipeline } from 'node:stream/promises';
import { type ConflictPolicy, type FilebrowserItemResult, filebrowserIssue } from '@lucky/shared';
import { parentOf } from '../../core/storage/paths.js';
import { type Storage, type StorageEntry, StorageError } from '../../core/storage/types.js';
import { joinPath } from './storageAccess.js';

/** Deepest folder nesting a copy between storages walks (a symlink loop on a backend ends here). */
const MAX_DEPTH = 64;

/**
 * `name (1).ext`, `name (2).ext` … : the first that `taken` does not hold. The extension is what
 * follows the last dot of a file's name (not a leading dot: `.env` → `.env (1)`); a folder keeps
 * its whole name.
 */
export function freeName(name: string, kind: 'file' | 'dir', taken: (n: string) => boolean): string {
  if (!taken(name)) return name;
  const dot = kind === 'file' ? name.lastIndexOf('.') : -1;
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/** The names in a folder, NFC (what the storages compare), for conflict checks; empty when it is missing. */
export async function namesIn(storage: Storage, dir: string): Promise<Set<string>> {
  try {
    return new Set((await storage.list(dir)).map((e) => e.name.normalize('NFC')));
  } catch (err) {
    if (err instanceof StorageError && err.code === 'notFound') return new Set();
    throw err;
  }
}

/** A storage failure as one item's reason. */
export function itemFailure(name: string, err: unknown): FilebrowserItemResult {
  if (!(err instanceof StorageError)) throw err;
  return {
    name,
    result: 'failed',
    reason: filebrowserIssue(`storage_${err.code}`, { path: err.path, detail: err.detail ?? err.code }),
  };
}

/** Whether `p` is `ancestor` or below it. */
export const isWithin = (p: string, ancestor: string): boolean =>
  p === ancestor || ancestor === '/' || p.startsWith(`${ancestor}/`);

/** Copies a file or a folder tree from one storage to another by streaming (the target must not exist). */
async function copyAcross(from: Storage, src: StorageEntry, to: Storage, dst: string, depth = 0): Promise<void> {
  if (src.kind === 'dir') {
    if (depth > MAX_DEPTH) throw new StorageError('failed', src.path, 'tooDeep');
    await to.mkdir(dst);
    for (const child of await from.list(src.path))
      await copyAcross(from, child, to, joinPath(dst, child.name), depth + 1);
  } else {
    const input = await from.read(src.path);
    const output = await to.write(dst, { mode: 'create' });
    await pipeline(input, output);
  }
  // The time it had, where the target keeps one (a failure here loses nothing but the time).
  await to.setMtime(dst, src.mtimeMs).catch(() => undefined);
}

export interface TransferItem {
  op: 'move' | 'copy';
  from: Storage;
  src: StorageEntry;
  to: Storage;
  /** Target folder (canonical). */
  dir: string;
  conflict: ConflictPolicy;
  /** Names in the target folder (NFC), kept up to date as items land. */
  taken: Set<string>;
}

/**
 * Moves or copies one entry into `dir`: within a storage by the storage's own move / copy, across
 * storages by streaming (a move deletes the source only once the copy is whole). The result says
 * what happened and under which name.
 */
export async function transferOne(t: TransferItem): Promise<FilebrowserItemResult & { to?: string }> {
  const { src, from, to, dir } = t;
  const same = from === to || from.key === to.key;
  if (same && isWithin(dir, src.path))
    return itemFailure(src.name, new StorageError('conflict', joinPath(dir, src.name), 'intoItself'));
  if (same && t.op === 'move' && parentOf(src.path) === dir) return { name: src.name, result: 'skipped' };
  let name = src.name;
  const clash = t.taken.has(name.normalize('NFC'));
  if (clash) {
    if (t.conflict === 'skip') return { name: src.name, result: 'skipped' };
    if (t.conflict === 'keepBoth') name = freeName(name, src.kind, (n) => t.taken.has(n.normalize('NFC')));
  }
  const dst = joinPath(dir, name);
  const replace = clash && t.conflict === 'replace';
  // Replacing a folder that holds the source would delete the source with it.
  if (replace && same && isWithin(src.path, dst))
    return itemFailure(src.name, new StorageError('conflict', dst, 'replaceParent'));
  try {
    if (same) {
      if (t.op === 'move') await from.move(src.path, dst, { overwrite: replace });
      else await from.copy(src.path, dst, { overwrite: replace, recursive: true });
    } else {
      if (replace) await to.delete(dst);
      try {
        await copyAcross(from, src, to, dst);
      } catch (err) {
        // Half a copy is no copy: what landed goes (the source is untouched).
        await to.delete(dst).catch(() => undefined);
        throw err;
      }
      if (t.op === 'move') await from.delete(src.path);
    }
  } catch (err) {
    return itemFailure(src.name, err);
  }
  t.taken.add(name.normalize('NFC'));
  return { name: src.name, result: 'done', as: name, to: dst };
}

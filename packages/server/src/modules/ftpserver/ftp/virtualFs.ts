// The session's view of its files: the root lists the user's visible mounts (each a storage of
// storage management under a folder name), everything below is a path inside that storage.
// Paths are resolved here in the VIRTUAL space (cwd + argument, `.` and `..` clamped at the
// root), so `CWD ..` at a mount's top goes back to the root and never into the storage's parent;
// the storage then checks the clean path it gets (NUL, backslash, symlinks leaving its root …).
import { resolveVirtual } from '../../../core/storage/paths.js';
import { type Storage, StorageError } from '../../../core/storage/types.js';
import { FtpError } from './errors.js';

export type FtpAccessLevel = 'rw' | 'ro';

/** A mount as one user sees it. */
export interface VisibleMount {
  key: string;
  name: string;
  storage: string;
  access: FtpAccessLevel;
}

export type Located =
  | { kind: 'root'; vpath: '/' }
  | {
      kind: 'mount';
      vpath: string;
      mount: VisibleMount;
      storage: Storage;
      /** The path inside the storage ('/' = the mount's top). */
      path: string;
      /** The user may write and the storage is not read-only. */
      writable: boolean;
    };

const REPLACEMENT = '\ufffd';

/**
 * `arg` (absolute, or relative to `cwd`) as a canonical virtual path (`/`, `/mount/a/b`) through
 * the storage core's `resolveVirtual`: `.` dropped, `..` clamped at the root, then checked (NUL,
 * control characters, backslashes, length). A name that was not valid UTF-8 (decoded as U+FFFD)
 * is refused: it could not name the same file twice.
 */
export function resolveVirtualPath(cwd: string, arg: string): string {
  if (arg.includes(REPLACEMENT)) throw new FtpError(553, 'File name is not valid UTF-8');
  try {
    return resolveVirtual(cwd, arg);
  } catch (err) {
    if (err instanceof StorageError) throw new FtpError(553, 'File name not allowed');
    throw err;
  }
}

/** The last segment of a virtual path ('' for the root). */
export function baseName(vpath: string): string {
  return vpath.slice(vpath.lastIndexOf('/') + 1);
}

export class VirtualFs {
  constructor(
    /** The user's mounts now (read per call: an edit of users or mounts applies at the next command). */
    private readonly mounts: () => readonly VisibleMount[],
    /** The storage behind a key now (per call: never kept across a reload). */
    private readonly storageOf: (key: string) => Storage | undefined,
  ) {}

  list(): readonly VisibleMount[] {
    return this.mounts();
  }

  /** Where a canonical virtual path leads; 550 for a mount the user cannot see or whose storage is gone. */
  locate(vpath: string): Located {
    if (vpath === '/') return { kind: 'root', vpath: '/' };
    const second = vpath.indexOf('/', 1);
    const name = (second < 0 ? vpath.slice(1) : vpath.slice(1, second)).normalize('NFC');
    const mount = this.mounts().find((m) => m.name.normalize('NFC') === name);
    if (!mount) throw new FtpError(550, 'No such file or directory');
    const storage = this.storageOf(mount.storage);
    if (!storage) throw new FtpError(550, 'Storage unavailable');
    const path = second < 0 ? '/' : vpath.slice(second);
    return { kind: 'mount', vpath, mount, storage, path, writable: mount.access === 'rw' && !storage.readOnly };
  }

  /**
   * As `locate`, for a verb that changes something: the root, a mount's own folder (it is not the
   * user's to remove or rename) and read-only places refuse (550, or 553 for stores).
   */
  locateWritable(vpath: string, store = false): Extract<Located, { kind: 'mount' }> {
    const code = store ? 553 : 550;
    // A top-level name is a mount or nothing: neither is the user's to create, remove or rename.
    if (vpath.indexOf('/', 1) < 0) {
      const name = vpath.slice(1).normalize('NFC');
      if (this.mounts().some((m) => m.name.normalize('NFC') === name))
        throw new FtpError(code, 'Permission denied: a mount cannot be changed itself');
      throw new FtpError(code, 'Permission denied: the root holds the mounts only');
    }
    const at = this.locate(vpath);
    if (at.kind === 'root') throw new FtpError(code, 'Permission denied: the root holds the mounts only');
    if (!at.writable) throw new FtpError(code, 'Permission denied: read-only');
    return at;
  }
}

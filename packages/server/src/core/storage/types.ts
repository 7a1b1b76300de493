import type { Readable, Writable } from 'node:stream';
import type { ModuleKey } from '@lucky/shared';

/**
 * The one storage interface every file service (WebDAV, FTP, the file manager) reads and writes
 * through. A backend (a local folder, a remote WebDAV server, more later) implements it; path
 * confinement lives here, once: every method takes the service's path (already percent-decoded
 * by the service, `/`-separated, relative to the storage's root) and refuses, with
 * `StorageError('badPath')`, NUL, a backslash, a `.` or `..` segment, an encoded separator the
 * service left in, and anything that is not valid UTF-16; names are compared in Unicode NFC.
 * A local backend also refuses a path whose real location (symlinks resolved) leaves the root.
 *
 * Paths are canonical after the check: `/` for the root, else `/a/b` (no trailing slash, no empty
 * segments).
 */
export type StorageKind = 'local' | 'webdav';

export interface StorageEntry {
  /** The last segment as stored ('' for the root). */
  name: string;
  /** Canonical path inside the storage. */
  path: string;
  kind: 'file' | 'dir';
  /** Bytes (0 for a folder). */
  size: number;
  mtimeMs: number;
  /** Creation time where the backend knows it, else mtimeMs. */
  birthtimeMs: number;
  /** Strong validator, quoted (`"…"`): changes whenever the file's content may have changed. */
  etag: string;
}

/** Bytes; a backend that cannot tell answers `undefined` for that figure. */
export interface StorageSpace {
  total?: number;
  free?: number;
  used?: number;
}

export interface ReadOptions {
  /** First byte (default 0). */
  start?: number;
  /** Last byte, inclusive (default: the end). */
  end?: number;
  signal?: AbortSignal;
}

/**
 * - `create`: a new file; `exists` when one is there.
 * - `replace`: the whole file, written beside and renamed over the old one when the stream
 *   finishes (readers never see half a file; a stream destroyed with an error leaves the old one).
 * - `append`: at the end of the file (created when absent) — FTP APPE.
 * - `offset`: in place from `offset` (≤ the current size), the rest cut off at finish — FTP REST + STOR.
 */
export type WriteMode = 'create' | 'replace' | 'append' | 'offset';

export interface WriteOptions {
  mode: WriteMode;
  offset?: number;
  signal?: AbortSignal;
}

export interface Storage {
  /** The storage entry's key in storage management. */
  readonly key: string;
  readonly kind: StorageKind;
  /** Read-only storages refuse every write with `readOnly`, whatever the user may do. */
  readonly readOnly: boolean;

  stat(path: string): Promise<StorageEntry>;
  /** The entries of a folder (not sorted). `notDir` for a file. */
  list(path: string, opts?: { signal?: AbortSignal }): Promise<StorageEntry[]>;
  /** A byte range of a file (`isDir` for a folder). */
  read(path: string, opts?: ReadOptions): Promise<Readable>;
  /**
   * A stream into a file. The parent folder must exist (`conflict` otherwise). The data is in
   * place when the Writable emits 'finish' (`replace` renames then); destroy it with an error to
   * abandon the write.
   */
  write(path: string, opts: WriteOptions): Promise<Writable>;
  /** `exists` when something is there, `conflict` when the parent is missing. */
  mkdir(path: string): Promise<void>;
  /** Rename within the storage; `exists` unless `overwrite` (then the target, folder or file, is replaced). */
  move(from: string, to: string, opts: { overwrite: boolean }): Promise<void>;
  /** Copy within the storage; a folder with `recursive: false` copies the folder alone (WebDAV Depth 0). */
  copy(from: string, to: string, opts: { overwrite: boolean; recursive: boolean }): Promise<void>;
  /** A file, or a folder with everything below it. */
  delete(path: string): Promise<void>;
  /** Set the modification time (FTP MFMT, WebDAV clients that keep times). */
  setMtime(path: string, mtimeMs: number): Promise<void>;
  space(): Promise<StorageSpace>;
  /** Can the backend be reached now (`unreachable` with its cause otherwise)? */
  probe(): Promise<void>;
  /** Release what the backend holds (connections); the registry calls it when a storage is replaced. */
  close(): Promise<void>;
}

export type StorageErrorCode =
  | 'badPath'
  | 'notFound'
  | 'exists'
  | 'notDir'
  | 'isDir'
  /** The parent folder is missing, or a move / copy into itself. */
  | 'conflict'
  | 'readOnly'
  /** The file system refused (permissions), or a symlink leads outside the root. */
  | 'denied'
  | 'noSpace'
  | 'unreachable'
  /** A remote answered something we could not use. */
  | 'badAnswer'
  | 'failed';

/** Every storage failure: a code the services map to their protocol (404, 409, 550 …) and the UI translates. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly path: string,
    /** The system's or the server's own words (errno code, HTTP status …), for logs and the UI's detail. */
    readonly detail?: string,
  ) {
    super(`${code}: ${path}${detail ? ` (${detail})` : ''}`);
    this.name = 'StorageError';
  }
}

/** Which module mounts which storage, for "in use by …" (from every module's `storageMounts`). */
export interface StorageMount {
  module: ModuleKey;
  storage: string;
  /** What inside the module mounts it (a mount's name, a user), for the message. */
  owner: string;
  /** Whether that module is switched on. */
  enabled: boolean;
}

export interface StorageInfo {
  key: string;
  name: string;
  kind: StorageKind;
  readOnly: boolean;
}

/**
 * The storages storage management has opened, for every module (`ctx.storages`). Services look a
 * storage up per request or session (never keep one across a reload): while storage management
 * is off or an entry is gone, `get` answers `undefined` and the service says `storageUnavailable`.
 */
export interface StorageService {
  get(key: string): Storage | undefined;
  list(): StorageInfo[];
  /** Who mounts `key` (switched on or not), from every module's config. */
  mountsOf(key: string): StorageMount[];
  /** Storage management publishes its opened storages; the previous ones that are not kept are closed. */
  publish(storages: ReadonlyMap<string, { info: StorageInfo; storage: Storage }>): void;
}

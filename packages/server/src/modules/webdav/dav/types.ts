import type { Storage } from '../../../core/storage/types.js';
import type { LockManager } from './locks.js';

/** Who is asking (the module authenticated them): their access per mount name. */
export interface DavAccess {
  /** Per mount name: 'rw' | 'ro'; absent → the mount is invisible (404). */
  access(mount: string): 'rw' | 'ro' | undefined;
  user: string;
}

/** A top folder of the service: a storage shown under a name. */
export interface DavMount {
  name: string;
  storageKey: string;
}

/** One write-ish request (PUT, DELETE, MKCOL, COPY, MOVE, PROPPATCH, LOCK, UNLOCK), for the module's log. */
export interface DavEvent {
  method: string;
  /** The decoded request path (under the prefix). */
  path: string;
  /** COPY / MOVE: the decoded destination path. */
  destination?: string;
  user: string;
  status: number;
  /** Request body bytes taken (PUT). */
  bytes: number;
}

export interface DavOptions {
  /** URL path prefix the service answers under ('/' or '/dav'); canonical, no trailing slash except '/'. */
  prefix: string;
  /** Read per request. */
  mounts: () => readonly DavMount[];
  /** ctx.storages.get: looked up per request, never kept. */
  storage: (key: string) => Storage | undefined;
  /** In memory, per module runtime (survives reloads); its `props` keeps the dead properties. */
  locks: LockManager;
  /** One event per write-ish request. */
  log?: (event: DavEvent) => void;
}

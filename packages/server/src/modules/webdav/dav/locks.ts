// WebDAV write locks (RFC 4918 §6, §7), in memory per module runtime: the runtime keeps one
// LockManager across reloads, so a client's locks outlive a settings change but not a restart
// (clients refresh or re-lock; a lock is advisory state, not data). Locks are kept per storage
// and path, not per URL: a storage mounted twice is locked once.
import { randomUUID } from 'node:crypto';
import { PropStore, type PropStoreOptions } from './deadProps.js';
import { parentPath, within } from './wirePath.js';

export type LockScope = 'exclusive' | 'shared';

export interface DavLock {
  /** `urn:uuid:…` */
  token: string;
  storage: string;
  /** The lock root's path in the storage. */
  path: string;
  /** The lock root's URL as it was locked (for `lockroot`). */
  rootHref: string;
  depth: 0 | 'infinity';
  scope: LockScope;
  /** The client's `owner` element content, serialised (echoed in lock discovery). */
  owner: string;
  /** Who took it: only they may use its token. */
  user: string;
  timeoutSec: number;
  expiresAt: number;
}

export interface LockManagerOptions extends PropStoreOptions {
  /** Longest lock a client gets (`Infinite` included); default 1 h. */
  maxTimeoutSec?: number;
  /** Most locks held at once over every storage (a LOCK beyond answers 503); default 10,000. */
  maxLocks?: number;
  /** Most locks one user holds, so one account cannot take the whole table; default 1,000. */
  maxLocksPerUser?: number;
  now?: () => number;
}

/** A lock's owner text is echoed in every lock discovery: kept small. */
export const MAX_OWNER_CHARS = 4096;

export class LockManager {
  /** The dead properties (PROPPATCH), kept beside the locks for the same runtime. */
  readonly props: PropStore;
  readonly maxTimeoutSec: number;
  private readonly maxLocks: number;
  private readonly maxPerUser: number;
  private readonly now: () => number;
  /** storage → path → locks rooted there. */
  private readonly byPath = new Map<string, Map<string, DavLock[]>>();
  private readonly byToken = new Map<string, DavLock>();

  constructor(opts: LockManagerOptions = {}) {
    this.props = new PropStore(opts);
    this.maxTimeoutSec = opts.maxTimeoutSec ?? 3600;
    this.maxLocks = opts.maxLocks ?? 10_000;
    this.maxPerUser = opts.maxLocksPerUser ?? 1_000;
    this.now = opts.now ?? Date.now;
  }

  /** How long a lock is taken for, from the client's `Timeout` header (RFC 4918 §10.7), capped. */
  timeoutFrom(header: string | undefined): number {
    if (header) {
      for (const part of header.split(',')) {
        const t = part.trim();
        if (/^infinite$/i.test(t)) return this.maxTimeoutSec;
        const m = /^second-(\d+)$/i.exec(t);
        if (m) return Math.max(1, Math.min(Number(m[1]), this.maxTimeoutSec));
      }
    }
    return this.maxTimeoutSec;
  }

  private alive(lock: DavLock): boolean {
    if (lock.expiresAt > this.now()) return true;
    this.drop(lock);
    return false;
  }

  private drop(lock: DavLock): void {
    this.byToken.delete(lock.token);
    const paths = this.byPath.get(lock.storage);
    const list = paths?.get(lock.path);
    if (!paths || !list) return;
    const rest = list.filter((l) => l !== lock);
    if (rest.length) paths.set(lock.path, rest);
    else paths.delete(lock.path);
    if (paths.size === 0) this.byPath.delete(lock.storage);
  }

  /** The live locks rooted at exactly `path`. */
  private at(storage: string, path: string): DavLock[] {
    const list = this.byPath.get(storage)?.get(path);
    return list ? list.filter((l) => this.alive(l)) : [];
  }

  /** Locks that cover `path`: rooted there, or depth-infinity locks on an ancestor. */
  covering(storage: string, path: string): DavLock[] {
    if (!this.byPath.has(storage)) return [];
    const out = [...this.at(storage, path)];
    for (let p = path; p !== '/'; ) {
      p = parentPath(p);
      for (const l of this.at(storage, p)) if (l.depth === 'infinity') out.push(l);
    }
    return out;
  }

  /** Locks rooted at `path` or below it. */
  within(storage: string, path: string): DavLock[] {
    const paths = this.byPath.get(storage);
    if (!paths) return [];
    const out: DavLock[] = [];
    for (const [p, list] of [...paths]) if (within(path, p)) for (const l of list) if (this.alive(l)) out.push(l);
    return out;
  }

  /** A live lock by its token. */
  get(token: string): DavLock | undefined {
    const l = this.byToken.get(token);
    return l && this.alive(l) ? l : undefined;
  }

  /**
   * The first lock a new one would clash with: an exclusive lock anywhere it would cover or that
   * covers it, or any lock there when the new one is exclusive.
   */
  conflict(storage: string, path: string, depth: 0 | 'infinity', scope: LockScope): DavLock | undefined {
    const clash = (l: DavLock) => scope === 'exclusive' || l.scope === 'exclusive';
    const above = this.covering(storage, path).find(clash);
    if (above) return above;
    if (depth !== 'infinity') return undefined;
    return this.within(storage, path).find(clash);
  }

  /** Take a lock (the caller checked `conflict`); undefined when the table, or the user's share of it, is full. */
  create(lock: Omit<DavLock, 'token' | 'expiresAt'>): DavLock | undefined {
    if (this.byToken.size >= Math.min(this.maxLocks, this.maxPerUser)) {
      let mine = 0;
      for (const l of [...this.byToken.values()]) if (this.alive(l) && l.user === lock.user) mine++;
      if (this.byToken.size >= this.maxLocks || mine >= this.maxPerUser) return undefined;
    }
    const made: DavLock = {
      ...lock,
      token: `urn:uuid:${randomUUID()}`,
      expiresAt: this.now() + lock.timeoutSec * 1000,
    };
    let paths = this.byPath.get(made.storage);
    if (!paths) {
      paths = new Map();
      this.byPath.set(made.storage, paths);
    }
    paths.set(made.path, [...(paths.get(made.path) ?? []), made]);
    this.byToken.set(made.token, made);
    return made;
  }

  refresh(lock: DavLock, timeoutSec: number): void {
    lock.timeoutSec = timeoutSec;
    lock.expiresAt = this.now() + timeoutSec * 1000;
  }

  remove(token: string): boolean {
    const l = this.byToken.get(token);
    if (!l) return false;
    this.drop(l);
    return true;
  }

  /** Drop the locks rooted at `path` or below (the resources were deleted or moved away). */
  removeWithin(storage: string, path: string): void {
    for (const l of this.within(storage, path)) this.drop(l);
  }

  /** Number of live locks (for status and tests). */
  get size(): number {
    for (const l of [...this.byToken.values()]) this.alive(l);
    return this.byToken.size;
  }
}

// Whether a request may go ahead: the HTTP validators (If-Match, If-None-Match,
// If-Unmodified-Since, If-Modified-Since — RFC 9110 §13.2.2), the WebDAV If header (RFC 4918
// §10.4: 412 when no list holds), and the locks whose tokens a change must submit (423).
import { etagMatches, notModified } from '../../../core/serve/staticFile.js';
import type { StorageEntry } from '../../../core/storage/types.js';
import { DavError, isNotFound } from './errors.js';
import { type Exchange, type Resource, resourceOf } from './exchange.js';
import { type IfList, parseIf, sameEtag, tokensOf } from './ifHeader.js';
import type { DavLock } from './locks.js';
import { placeOf } from './wirePath.js';

const header = (x: Exchange, name: string): string | undefined => {
  const v = x.req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * The HTTP preconditions against the target as it is (`undefined`: it does not exist): 412, or
 * for GET / HEAD 304, else nothing.
 */
export function httpPreconditions(x: Exchange, entry: StorageEntry | undefined): 304 | 412 | undefined {
  const ifMatch = header(x, 'if-match');
  if (ifMatch !== undefined) {
    if (!entry) return 412;
    // Strong comparison (RFC 9110 §13.1.1): a weak tag never matches.
    const strong =
      ifMatch.trim() === '*' || ifMatch.split(',').some((t) => t.trim() === entry.etag && !t.trim().startsWith('W/'));
    if (!strong) return 412;
  } else if (entry) {
    const ius = header(x, 'if-unmodified-since');
    const since = ius === undefined ? Number.NaN : Date.parse(ius);
    if (!Number.isNaN(since) && Math.floor(entry.mtimeMs / 1000) * 1000 > since) return 412;
  }
  const read = x.method === 'GET' || x.method === 'HEAD';
  const inm = header(x, 'if-none-match');
  if (inm !== undefined) {
    if (entry && etagMatches(inm, entry.etag)) return read ? 304 : 412;
  } else if (read && entry && notModified(x.req, entry)) return 304;
  return undefined;
}

/** Parse the If header once (400 when it does not follow the grammar). */
export function ifListsOf(x: Exchange): IfList[] | undefined {
  if (x.ifLists) return x.ifLists;
  const h = header(x, 'if');
  if (h === undefined) return undefined;
  x.ifLists = parseIf(h);
  return x.ifLists;
}

/** A resource's state as If conditions see it. */
interface State {
  tokens: Set<string>;
  etag?: string;
}

/**
 * Evaluate the If header (when sent): true when at least one list holds, each list against its
 * tagged resource or the request's. A tag outside the service or naming nothing has no state:
 * only its negated conditions can hold. 412 when none holds.
 */
export async function checkIf(x: Exchange, target: Resource | undefined): Promise<void> {
  const lists = ifListsOf(x);
  if (!lists) return;
  const states = new Map<string, State>();
  const stateOf = async (tag: string | undefined): Promise<State> => {
    const key = tag ?? '';
    const had = states.get(key);
    if (had) return had;
    let r: Resource | undefined = target;
    if (tag !== undefined) {
      try {
        r = resourceOf(x, placeOf(x.opts.prefix, tag));
      } catch {
        r = undefined;
      }
    }
    const state: State = { tokens: new Set() };
    if (r) {
      for (const l of x.opts.locks.covering(r.mount.storageKey, r.path)) state.tokens.add(l.token);
      try {
        state.etag = (await r.storage.stat(r.path)).etag;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    states.set(key, state);
    return state;
  };
  for (const list of lists) {
    const state = await stateOf(list.tag);
    const holds = list.conditions.every((c) => {
      const yes =
        c.kind === 'token' ? state.tokens.has(c.value) : state.etag !== undefined && sameEtag(c.value, state.etag);
      return c.not ? !yes : yes;
    });
    if (holds) return;
  }
  throw new DavError(412);
}

/**
 * 423 unless the request submitted (in its If header, as the lock's own user) the tokens of the
 * locks it would break: every exclusive lock, and one of the shared ones when there are any.
 */
export function requireTokens(x: Exchange, locks: readonly DavLock[], rootHref: (l: DavLock) => string): void {
  if (locks.length === 0) return;
  const lists = ifListsOf(x);
  const submitted = lists ? tokensOf(lists) : new Set<string>();
  const held = (l: DavLock) => submitted.has(l.token) && l.user === x.who.user;
  const missing = locks.filter((l) => l.scope === 'exclusive' && !held(l));
  const shared = locks.filter((l) => l.scope === 'shared');
  if (shared.length && !shared.some(held)) missing.push(...shared);
  if (missing.length) throw new DavError(423, 'lock-token-submitted', [...new Set(missing.map(rootHref))]);
}

/**
 * The locks a change to `r` must hold: those covering it; with `membership`, those of its parent
 * (it is created or removed there); with `subtree`, those on anything below it (it is deleted or
 * replaced whole).
 */
export function locksFor(x: Exchange, r: Resource, opt: { membership?: boolean; subtree?: boolean }): DavLock[] {
  const { locks } = x.opts;
  const key = r.mount.storageKey;
  const found = new Set(locks.covering(key, r.path));
  if (opt.membership && r.path !== '/') {
    const parent = r.path.slice(0, r.path.lastIndexOf('/')) || '/';
    for (const l of locks.covering(key, parent)) found.add(l);
  }
  if (opt.subtree) for (const l of locks.within(key, r.path)) found.add(l);
  return [...found];
}

/** Both checks for a change to `r`: the If header first (412), then the locks (423). */
export async function mayChange(
  x: Exchange,
  r: Resource,
  opt: { membership?: boolean; subtree?: boolean },
): Promise<void> {
  await checkIf(x, r);
  requireTokens(x, locksFor(x, r, opt), (l) => l.rootHref);
}

// LOCK and UNLOCK (RFC 4918 §9.10, §9.11): exclusive and shared write locks, Depth 0 or
// infinity, refreshed by a LOCK with no body and the token in an If header; a LOCK on an
// unmapped URL creates an empty file there (§7.3) and answers 201.
import { quiet, readBody } from './body.js';
import { checkIf, ifListsOf, locksFor, requireTokens } from './conditions.js';
import { DavError, davErrorOf, isNotFound } from './errors.js';
import { type Exchange, hrefOfResource, mustWrite, resourceOf, sendStatus, sendXml } from './exchange.js';
import { tokensOf } from './ifHeader.js';
import { activeLock } from './liveProps.js';
import { type DavLock, type LockScope, MAX_OWNER_CHARS } from './locks.js';
import { elementsOf, isDav, parseXml, serializeChildren, XML_HEAD } from './xml.js';

function lockAnswer(x: Exchange, status: number, locks: DavLock[], token?: string): void {
  const now = Date.now();
  const body = `${XML_HEAD}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${locks.map((l) => activeLock(l, now)).join('')}</D:lockdiscovery></D:prop>\n`;
  sendXml(x, status, body, token ? { 'lock-token': `<${token}>` } : {});
}

export async function lock(x: Exchange): Promise<void> {
  const body = await readBody(x.req);
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  const r = resourceOf(x, x.place);
  mustWrite(r);
  const { locks } = x.opts;
  const key = r.mount.storageKey;
  const timeoutSec = locks.timeoutFrom(typeof x.req.headers.timeout === 'string' ? x.req.headers.timeout : undefined);

  if (body.length === 0 || body.toString('utf8').trim() === '') {
    // Refresh: the locks covering the resource whose tokens the If header submits, as their user.
    const lists = ifListsOf(x);
    if (!lists) throw new DavError(400);
    await checkIf(x, r);
    const submitted = tokensOf(lists);
    const mine = locks.covering(key, r.path).filter((l) => submitted.has(l.token) && l.user === x.who.user);
    if (mine.length === 0) throw new DavError(412, 'lock-token-matches-request-uri');
    for (const l of mine) locks.refresh(l, timeoutSec);
    lockAnswer(x, 200, mine);
    return;
  }

  const info = parseXml(body);
  if (!isDav(info, 'lockinfo')) throw new DavError(400);
  let scope: LockScope | undefined;
  let write = false;
  let owner = '';
  for (const el of elementsOf(info)) {
    if (isDav(el, 'lockscope')) {
      const s = elementsOf(el)[0];
      if (s && isDav(s, 'exclusive')) scope = 'exclusive';
      else if (s && isDav(s, 'shared')) scope = 'shared';
    } else if (isDav(el, 'locktype')) write = elementsOf(el).some((t) => isDav(t, 'write'));
    else if (isDav(el, 'owner')) owner = serializeChildren(el);
  }
  if (!scope || !write) throw new DavError(400);
  if (owner.length > MAX_OWNER_CHARS) throw new DavError(400);
  const depthHeader = x.req.headers.depth;
  const depthText = depthHeader === undefined ? 'infinity' : String(depthHeader).trim().toLowerCase();
  if (depthText !== '0' && depthText !== 'infinity') throw new DavError(400);
  const depth = depthText === '0' ? 0 : 'infinity';

  let exists = true;
  let collection = false;
  try {
    collection = (await r.storage.stat(r.path)).kind === 'dir';
  } catch (err) {
    if (!isNotFound(err)) throw davErrorOf(err, 'read');
    exists = false;
  }
  await checkIf(x, r);
  const clash = locks.conflict(key, r.path, depth, scope);
  if (clash) throw new DavError(423, 'no-conflicting-lock', [clash.rootHref]);
  if (!exists) {
    // Creating the empty file adds a member to the parent: its locks must be submitted.
    requireTokens(x, locksFor(x, r, { membership: true }), (l) => l.rootHref);
    try {
      const out = quiet(await r.storage.write(r.path, { mode: 'create', signal: x.signal }));
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    } catch (err) {
      throw davErrorOf(err, 'write');
    }
    x.opts.locks.props.remove(key, r.path);
  }
  const made = locks.create({
    storage: key,
    path: r.path,
    rootHref: hrefOfResource(x, r, collection),
    depth,
    scope,
    owner,
    user: x.who.user,
    timeoutSec,
  });
  if (!made) throw new DavError(503);
  lockAnswer(x, exists ? 200 : 201, [made], made.token);
}

export async function unlock(x: Exchange): Promise<void> {
  await readBody(x.req);
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  const r = resourceOf(x, x.place);
  const header = x.req.headers['lock-token'];
  const m = typeof header === 'string' ? /^\s*<([^>]+)>\s*$/.exec(header) : null;
  if (!m) throw new DavError(400);
  const { locks } = x.opts;
  const found = locks.get(m[1]);
  const covers = found && locks.covering(r.mount.storageKey, r.path).includes(found);
  if (!found || !covers) throw new DavError(409, 'lock-token-matches-request-uri');
  if (found.user !== x.who.user) throw new DavError(403);
  locks.remove(found.token);
  sendStatus(x, 204);
}

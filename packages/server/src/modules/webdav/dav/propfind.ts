// PROPFIND (RFC 4918 §9.1): Depth 0 or 1 (infinity refused with `propfind-finite-depth`, as
// Apache does by default; an absent Depth is read as 1, see README.md), the 207 body streamed
// out member by member with back-pressure, so a folder of 10,000 entries never sits in memory as
// one string.
import type { StorageEntry, StorageSpace } from '../../../core/storage/types.js';
import { readBody } from './body.js';
import { DavError, davErrorOf, isNotFound } from './errors.js';
import { type Exchange, hrefOfResource, type Resource, resourceOf, writeChunk } from './exchange.js';
import { isQuota, type PropRequest, type PropTarget, responseXml } from './liveProps.js';
import { aboveHref, childPath, hrefOf, lastSegment, rootHref } from './wirePath.js';
import { DAV_NS, elementsOf, isDav, parseXml, XML_HEAD } from './xml.js';

/** The PROPFIND body: empty is allprop. */
export function parsePropfind(body: Buffer): PropRequest {
  if (body.length === 0 || body.toString('utf8').trim() === '') return { mode: 'allprop', include: [] };
  const root = parseXml(body);
  if (!isDav(root, 'propfind')) throw new DavError(400);
  let request: PropRequest | undefined;
  const include: { ns: string; name: string }[] = [];
  for (const el of elementsOf(root)) {
    if (isDav(el, 'allprop')) request ??= { mode: 'allprop', include };
    else if (isDav(el, 'propname')) request ??= { mode: 'propname' };
    else if (isDav(el, 'prop'))
      request ??= { mode: 'prop', names: elementsOf(el).map((p) => ({ ns: p.ns, name: p.name })) };
    else if (isDav(el, 'include')) for (const p of elementsOf(el)) include.push({ ns: p.ns, name: p.name });
  }
  if (!request) throw new DavError(400);
  return request;
}

/** Depth of a PROPFIND: '0', '1', or infinity (refused by the caller); absent → 1. */
function depthOf(x: Exchange): '0' | '1' | 'infinity' {
  const d = x.req.headers.depth;
  if (d === undefined) return '1';
  const v = String(d).trim().toLowerCase();
  if (v === '0' || v === '1' || v === 'infinity') return v;
  throw new DavError(400);
}

const wantsQuota = (r: PropRequest) =>
  (r.mode === 'prop' ? r.names : r.mode === 'allprop' ? r.include : []).some((p) => isQuota(p.ns, p.name));

/** Members are written out in batches of about this many characters. */
const BATCH_CHARS = 32 * 1024;

export async function propfind(x: Exchange): Promise<void> {
  const request = parsePropfind(await readBody(x.req));
  const depth = depthOf(x);
  if (depth === 'infinity') throw new DavError(403, 'propfind-finite-depth');
  const place = x.place;
  const quota = wantsQuota(request);

  if (place.kind === 'above') {
    const next = x.opts.prefix.slice(place.path === '/' ? 1 : place.path.length + 1).split('/')[0];
    const self: PropTarget = { href: aboveHref(place.path), collection: true, displayName: lastSegment(place.path) };
    const members: PropTarget[] =
      depth === '1' ? [{ href: aboveHref(childPath(place.path, next)), collection: true, displayName: next }] : [];
    await stream(x, request, [self], members);
    return;
  }

  if (place.kind === 'root') {
    const self: PropTarget = { href: rootHref(x.opts.prefix), collection: true, displayName: '' };
    const members: PropTarget[] = [];
    if (depth === '1') {
      for (const mount of x.opts.mounts()) {
        let r: Resource;
        try {
          r = resourceOf(x, { kind: 'mount', mount: mount.name, path: '/' });
        } catch {
          continue; // invisible to this user, or its storage is unavailable now
        }
        const entry = await r.storage.stat('/').catch(() => undefined);
        members.push(await targetOf(x, r, entry, mount.name, quota));
      }
    }
    await stream(x, request, [self], members);
    return;
  }

  const r = resourceOf(x, place);
  let entry: StorageEntry;
  try {
    entry = await r.storage.stat(r.path);
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  await x.opts.locks.props.ready(r.mount.storageKey);
  const name = r.path === '/' ? r.mount.name : entry.name;
  const self = await targetOf(x, r, entry, name, quota);
  if (depth === '0' || entry.kind !== 'dir') {
    await stream(x, request, [self], []);
    return;
  }
  let children: StorageEntry[];
  try {
    children = await r.storage.list(r.path, { signal: x.signal });
  } catch (err) {
    if (isNotFound(err)) throw new DavError(404);
    throw davErrorOf(err, 'read');
  }
  const space = self.space;
  const members = (function* () {
    for (const c of children) {
      const child: Resource = { ...r, path: childPath(r.path, c.name) };
      yield memberOf(x, child, c, space);
    }
  })();
  await stream(x, request, [self], members);
}

/** A storage resource as a PROPFIND member (its space fetched once per request, when asked). */
async function targetOf(
  x: Exchange,
  r: Resource,
  entry: StorageEntry | undefined,
  name: string,
  quota: boolean,
): Promise<PropTarget> {
  await x.opts.locks.props.ready(r.mount.storageKey);
  const space: StorageSpace | undefined = quota ? await r.storage.space().catch(() => undefined) : undefined;
  const t = memberOf(x, r, entry, space);
  t.displayName = name;
  return t;
}

function memberOf(
  x: Exchange,
  r: Resource,
  entry: StorageEntry | undefined,
  space: StorageSpace | undefined,
): PropTarget {
  const collection = !entry || entry.kind === 'dir';
  const key = r.mount.storageKey;
  return {
    href: r.path === '/' ? hrefOf(x.opts.prefix, r.mount.name, '/', true) : hrefOfResource(x, r, collection),
    collection,
    entry,
    displayName: entry?.name ?? '',
    locks: x.opts.locks.covering(key, r.path),
    dead: x.opts.locks.props.of(key, r.path),
    space,
  };
}

/** Write the 207: head, members in batches (waiting for the client when it is slow), tail. */
async function stream(
  x: Exchange,
  request: PropRequest,
  first: PropTarget[],
  rest: Iterable<PropTarget>,
): Promise<void> {
  const now = Date.now();
  x.res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
  let batch = `${XML_HEAD}<D:multistatus xmlns:D="${DAV_NS}">\n`;
  for (const t of first) batch += responseXml(t, request, now);
  for (const t of rest) {
    batch += responseXml(t, request, now);
    if (batch.length >= BATCH_CHARS) {
      if (!(await writeChunk(x, batch))) return;
      batch = '';
    }
  }
  batch += '</D:multistatus>\n';
  if (await writeChunk(x, batch)) x.res.end();
}

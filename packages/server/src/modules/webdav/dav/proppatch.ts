// PROPPATCH (RFC 4918 §9.2): set / remove dead properties in document order, all or nothing.
// The live properties are protected (403 with `cannot-modify-protected-property`); when one
// operation fails, every other one is answered 424 Failed Dependency and nothing changes.
import { readBody } from './body.js';
import { mayChange } from './conditions.js';
import type { PropPatchOp } from './deadProps.js';
import { DavError, davErrorOf } from './errors.js';
import { type Exchange, hrefOfResource, mustWrite, type Resource, resourceOf, sendXml } from './exchange.js';
import { LIVE_NAMES } from './liveProps.js';
import {
  DAV_NS,
  elementsOf,
  emptyElement,
  escapeXml,
  isDav,
  parseXml,
  serialize,
  statusLine,
  XML_HEAD,
} from './xml.js';

export async function proppatch(x: Exchange): Promise<void> {
  const body = await readBody(x.req);
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  const r = resourceOf(x, x.place);
  mustWrite(r);
  const root = parseXml(body);
  if (!isDav(root, 'propertyupdate')) throw new DavError(400);
  const ops: PropPatchOp[] = [];
  for (const el of elementsOf(root)) {
    const set = isDav(el, 'set');
    if (!set && !isDav(el, 'remove')) continue;
    for (const prop of elementsOf(el).filter((c) => isDav(c, 'prop'))) {
      for (const p of elementsOf(prop)) {
        ops.push(
          set
            ? { op: 'set', prop: { ns: p.ns, name: p.name, xml: serialize(p) } }
            : { op: 'remove', ns: p.ns, name: p.name },
        );
      }
    }
  }
  if (ops.length === 0) throw new DavError(400);
  let collection: boolean;
  try {
    collection = (await r.storage.stat(r.path)).kind === 'dir';
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  await mayChange(x, r, {});
  const { props } = x.opts.locks;
  await props.ready(r.mount.storageKey);

  const nameOf = (o: PropPatchOp) => (o.op === 'set' ? o.prop : o);
  const statuses: number[] = ops.map(() => 200);
  const isProtected = (o: PropPatchOp) => nameOf(o).ns === DAV_NS && LIVE_NAMES.has(nameOf(o).name);
  let failed = ops.some(isProtected);
  if (failed) for (const [i, o] of ops.entries()) statuses[i] = isProtected(o) ? 403 : 424;
  else {
    const refusal = props.patch(r.mount.storageKey, r.path, ops);
    if (refusal) {
      failed = true;
      for (const i of statuses.keys()) statuses[i] = i === refusal.index ? refusal.status : 424;
    }
  }

  if (!failed) await keepWindowsTime(r, ops);

  // One propstat per status, each property named once.
  const groups = new Map<number, Map<string, string>>();
  for (const [i, o] of ops.entries()) {
    const n = nameOf(o);
    let g = groups.get(statuses[i]);
    if (!g) {
      g = new Map();
      groups.set(statuses[i], g);
    }
    const key = `{${n.ns}}${n.name}`;
    // A property whose own operation failed is reported with that failure, not with 424.
    if (!g.has(key) || statuses[i] !== 424) g.set(key, emptyElement(n.ns, n.name));
  }
  let out = `${XML_HEAD}<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(hrefOfResource(x, r, collection))}</D:href>`;
  for (const [status, names] of groups) {
    out += `<D:propstat><D:prop>${[...names.values()].join('')}</D:prop><D:status>${statusLine(status)}</D:status>`;
    if (status === 403) out += '<D:error><D:cannot-modify-protected-property/></D:error>';
    out += '</D:propstat>';
  }
  sendXml(x, 207, `${out}</D:response></D:multistatus>\n`);
}

const MS_NS = 'urn:schemas-microsoft-com:';

/**
 * Windows Explorer sets a copied file's time as `Win32LastModifiedTime` (an HTTP date) right
 * after its PUT: kept as a dead property and, best effort, as the file's modification time, so
 * the listing shows the original's time as it does on a local disk.
 */
async function keepWindowsTime(r: Resource, ops: readonly PropPatchOp[]): Promise<void> {
  const set = ops.find((o) => o.op === 'set' && o.prop.ns === MS_NS && o.prop.name === 'Win32LastModifiedTime');
  if (set?.op !== 'set') return;
  const ms = Date.parse(set.prop.xml.replace(/<[^>]*>/g, ''));
  if (Number.isNaN(ms)) return;
  await r.storage.setMtime(r.path, ms).catch(() => undefined);
}

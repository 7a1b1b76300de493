// The live properties (RFC 4918 §15, RFC 4331 quota) of what a PROPFIND answers for: a file or
// folder of a storage, the root collection of the mounts, or a folder above the prefix.
import { contentTypeOf } from '../../../core/serve/fileCache.js';
import type { StorageEntry, StorageSpace } from '../../../core/storage/types.js';
import type { DeadProp } from './deadProps.js';
import type { DavLock } from './locks.js';
import { DAV_NS, escapeXml } from './xml.js';

/** One member of a PROPFIND answer. */
export interface PropTarget {
  href: string;
  collection: boolean;
  /** The storage's entry (absent for the root collection and the folders above the prefix). */
  entry?: StorageEntry;
  displayName: string;
  /** Locks covering it (lock discovery); undefined where nothing can be locked. */
  locks?: readonly DavLock[];
  dead?: ReadonlyMap<string, DeadProp>;
  /** The storage's space, when a quota property was asked for. */
  space?: StorageSpace;
}

type Live = (t: PropTarget, now: number) => string | undefined;

const httpDate = (ms: number) => new Date(ms).toUTCString();
/** RFC 3339 without fractions (some clients parse only that). */
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** One lock as `activelock` (LOCK answers and lock discovery). */
export function activeLock(l: DavLock, now: number): string {
  const left = Math.max(0, Math.ceil((l.expiresAt - now) / 1000));
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${l.scope}/></D:lockscope>` +
    `<D:depth>${l.depth === 0 ? '0' : 'infinity'}</D:depth>` +
    (l.owner ? `<D:owner>${l.owner}</D:owner>` : '') +
    `<D:timeout>Second-${left}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(l.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(l.rootHref)}</D:href></D:lockroot></D:activelock>`
  );
}

/** The value (inner XML) of each live property; undefined: this target has none. */
const LIVE: Record<string, Live> = {
  resourcetype: (t) => (t.collection ? '<D:collection/>' : ''),
  displayname: (t) => escapeXml(t.displayName),
  getcontentlength: (t) => (t.entry && !t.collection ? String(t.entry.size) : undefined),
  getlastmodified: (t) => (t.entry ? httpDate(t.entry.mtimeMs) : undefined),
  creationdate: (t) => (t.entry ? rfc3339(t.entry.birthtimeMs || t.entry.mtimeMs) : undefined),
  getetag: (t) => (t.entry && !t.collection ? escapeXml(t.entry.etag) : undefined),
  getcontenttype: (t) => (t.entry && !t.collection ? escapeXml(contentTypeOf(t.entry.name)) : undefined),
  supportedlock: (t) => (t.locks ? SUPPORTED_LOCK : ''),
  lockdiscovery: (t, now) => (t.locks ? t.locks.map((l) => activeLock(l, now)).join('') : ''),
  'quota-available-bytes': (t) => (t.collection && t.space?.free !== undefined ? String(t.space.free) : undefined),
  'quota-used-bytes': (t) => (t.collection && t.space?.used !== undefined ? String(t.space.used) : undefined),
};

/** Live property names in DAV: (PROPPATCH refuses to change them). */
export const LIVE_NAMES: ReadonlySet<string> = new Set(Object.keys(LIVE));

/** What `allprop` returns (RFC 4331: not the quota properties, which cost a statfs). */
const ALLPROP = Object.keys(LIVE).filter((n) => !n.startsWith('quota-'));

export const isQuota = (ns: string, name: string) => ns === DAV_NS && name.startsWith('quota-') && LIVE_NAMES.has(name);

export interface PropName {
  ns: string;
  name: string;
}

export type PropRequest =
  | { mode: 'allprop'; include: PropName[] }
  | { mode: 'propname' }
  | { mode: 'prop'; names: PropName[] };

const elementWith = (name: string, value: string) =>
  value === '' ? `<D:${name}/>` : `<D:${name}>${value}</D:${name}>`;

const emptyOf = (p: PropName) => (p.ns === DAV_NS ? `<D:${p.name}/>` : `<${p.name} xmlns="${escapeXml(p.ns)}"/>`);

/** One `D:response` for a target: found properties under 200, the rest under 404. */
export function responseXml(t: PropTarget, request: PropRequest, now: number): string {
  let found = '';
  let missing = '';
  if (request.mode === 'propname') {
    for (const name of Object.keys(LIVE)) if (LIVE[name](t, now) !== undefined) found += `<D:${name}/>`;
    if (t.dead) for (const d of t.dead.values()) found += emptyOf(d);
  } else {
    const names: PropName[] =
      request.mode === 'allprop'
        ? [...ALLPROP.map((name) => ({ ns: DAV_NS, name })), ...request.include]
        : request.names;
    const seen = new Set<string>();
    for (const p of names) {
      const key = `{${p.ns}}${p.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const live = p.ns === DAV_NS ? LIVE[p.name] : undefined;
      const value = live?.(t, now);
      if (value !== undefined) found += elementWith(p.name, value);
      else {
        const dead = t.dead?.get(key);
        if (dead) found += dead.xml;
        else if (request.mode === 'prop') missing += emptyOf(p);
        else if (!live) missing += emptyOf(p); // an included name that is neither
      }
    }
    if (request.mode === 'allprop' && t.dead) {
      for (const [key, d] of t.dead) if (!seen.has(key)) found += d.xml;
    }
  }
  let s = `<D:response><D:href>${escapeXml(t.href)}</D:href>`;
  if (found) s += `<D:propstat><D:prop>${found}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`;
  if (missing) s += `<D:propstat><D:prop>${missing}</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>`;
  if (!found && !missing) s += '<D:propstat><D:prop/><D:status>HTTP/1.1 200 OK</D:status></D:propstat>';
  return `${s}</D:response>\n`;
}

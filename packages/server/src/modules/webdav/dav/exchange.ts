// One request as the methods see it: who asks, where it lands, its signal, and the answers
// every method shares (plain statuses, `DAV:error` bodies, 207 bodies).
import type { ServeRequest, ServeResponse } from '../../../core/serve/request.js';
import type { Storage } from '../../../core/storage/types.js';
import { DavError } from './errors.js';
import type { IfList } from './ifHeader.js';
import type { DavAccess, DavMount, DavOptions } from './types.js';
import { hrefOf, type Place, placeOf } from './wirePath.js';
import { errorBody } from './xml.js';

/** A place inside a mount the user can see, with its storage for this request. */
export interface Resource {
  mount: DavMount;
  access: 'rw' | 'ro';
  storage: Storage;
  /** Canonical path in the storage. */
  path: string;
}

export interface Exchange {
  req: ServeRequest;
  res: ServeResponse;
  who: DavAccess;
  opts: DavOptions;
  method: string;
  place: Place;
  /** Aborted when the client goes away before the answer is out. */
  signal: AbortSignal;
  /** The parsed If header (undefined: none sent). */
  ifLists?: IfList[];
  /** Request body bytes taken (PUT), for the log. */
  bytes: number;
  /** COPY / MOVE: the decoded destination, for the log. */
  destination?: string;
}

/** The mount and storage of a place inside a mount; an invisible mount is a 404, a missing storage a 503. */
export function resourceOf(x: Exchange, place: Place): Resource {
  if (place.kind !== 'mount') throw new DavError(404);
  const access = x.who.access(place.mount);
  const mount = access && x.opts.mounts().find((m) => m.name === place.mount);
  if (!access || !mount) throw new DavError(404);
  const storage = x.opts.storage(mount.storageKey);
  if (!storage) throw new DavError(503);
  return { mount, access, storage, path: place.path };
}

/**
 * Creating something at a mount's own name (MKCOL, PUT, LOCK of `/dav/<name>`): a mount the user
 * sees exists already (405); any other name would be a new mount, which the root collection does
 * not take (403, whether or not a mount the user cannot see has that name).
 */
export function refuseAtMountRoot(x: Exchange): void {
  const place = x.place;
  if (place.kind !== 'mount' || place.path !== '/') return;
  const visible = x.who.access(place.mount) && x.opts.mounts().some((m) => m.name === place.mount);
  throw new DavError(visible ? 405 : 403);
}

/** A place named in a header (Destination, If tags), resolved as the request target is. */
export function placeOfUrl(x: Exchange, url: string): Place {
  return placeOf(x.opts.prefix, url);
}

/** Refuse a write where the user may only read or the storage is read-only. */
export function mustWrite(r: Resource): void {
  if (r.access !== 'rw' || r.storage.readOnly) throw new DavError(403);
}

export function hrefOfResource(x: Exchange, r: Resource, collection: boolean): string {
  return hrefOf(x.opts.prefix, r.mount.name, r.path, collection);
}

/** An answer without a body of its own (a short text for the error statuses). */
export function sendStatus(x: Exchange, status: number, headers: Record<string, string> = {}): void {
  const { res } = x;
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  const noBody = status === 204 || status === 304 || x.method === 'HEAD' || status < 200;
  if (noBody || status < 400) {
    res.writeHead(status, noBody ? headers : { 'content-length': '0', ...headers });
    res.end();
    return;
  }
  const text = `${status}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(text.length),
    ...headers,
  });
  res.end(text);
}

/** A refusal: its status, with a `DAV:error` body when it names a condition. */
export function sendError(x: Exchange, err: DavError, headers: Record<string, string> = {}): void {
  if (!err.condition || x.method === 'HEAD') {
    sendStatus(x, err.status, headers);
    return;
  }
  sendXml(x, err.status, errorBody(err.condition, err.hrefs), headers);
}

/** An XML answer held in one string (small: errors, LOCK, PROPPATCH). */
export function sendXml(x: Exchange, status: number, body: string, headers: Record<string, string> = {}): void {
  const { res } = x;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, {
    'content-type': 'application/xml; charset=utf-8',
    'content-length': String(bytes.length),
    ...headers,
  });
  res.end(bytes);
}

/** Write a chunk of a streamed answer, waiting while the client is slow; false when it went away. */
export function writeChunk(x: Exchange, chunk: string): Promise<boolean> | boolean {
  const { res } = x;
  if (x.signal.aborted || res.writableEnded) return false;
  if (res.write(chunk)) return true;
  return new Promise((resolve) => {
    const onDrain = () => {
      x.signal.removeEventListener('abort', onAbort);
      resolve(true);
    };
    const onAbort = () => {
      resolve(false);
    };
    res.once('drain', onDrain);
    x.signal.addEventListener('abort', onAbort, { once: true });
  });
}

// The WebDAV engine: one handler over the storage interface for the module's listener, which has
// done the connection limits and the authentication and tells who is asking. It answers RFC 4918
// class 1 and 2 under the service's prefix: the prefix is a read-only collection of the mounts
// the user can see, each mount's root is its storage's `/`.
import { bodyOf, type ServeRequest, type ServeResponse } from '../../../core/serve/request.js';
import { ClientGone, readBody } from './body.js';
import { copyMove } from './copyMove.js';
import { del } from './delete.js';
import { DavError } from './errors.js';
import { type Exchange, sendError, sendStatus } from './exchange.js';
import { get } from './get.js';
import { lock, unlock } from './lock.js';
import { mkcol } from './mkcol.js';
import { propfind } from './propfind.js';
import { proppatch } from './proppatch.js';
import { put } from './put.js';
import type { DavAccess, DavOptions } from './types.js';
import { displayPath, placeOf } from './wirePath.js';

const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/** Methods that change something: one log event each. */
const WRITES = new Set(['PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPPATCH', 'LOCK', 'UNLOCK']);

const METHODS: Record<string, (x: Exchange) => Promise<void>> = {
  GET: get,
  HEAD: get,
  PUT: put,
  DELETE: del,
  MKCOL: mkcol,
  COPY: copyMove,
  MOVE: copyMove,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  LOCK: lock,
  UNLOCK: unlock,
  OPTIONS: options,
};

/** OPTIONS: class 1 and 2, and the header the Windows Mini-Redirector and Office look for. */
async function options(x: Exchange): Promise<void> {
  await readBody(x.req);
  sendStatus(x, 200, { dav: '1, 2', allow: ALLOW, 'ms-author-via': 'DAV', 'accept-ranges': 'bytes' });
}

export function createDavHandler(opts: DavOptions): (req: ServeRequest, res: ServeResponse, who: DavAccess) => void {
  return (req, res, who) => {
    // A client that goes away mid-body makes some engines emit 'error' on the body: the methods
    // see it through their reads; it must not become an unhandled event.
    bodyOf(req)?.on('error', () => undefined);
    const aborter = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    const method = (req.method ?? 'GET').toUpperCase();
    const x: Exchange = {
      req,
      res,
      who,
      opts,
      method,
      place: { kind: 'outside' },
      signal: aborter.signal,
      bytes: 0,
    };
    void serve(x).finally(() => {
      if (!opts.log || !WRITES.has(method)) return;
      opts.log({
        method,
        path: displayPath(x.place),
        destination: x.destination,
        user: who.user,
        status: res.statusCode,
        bytes: x.bytes,
      });
    });
  };
}

async function serve(x: Exchange): Promise<void> {
  try {
    const url = x.req.url ?? '/';
    // A fragment is never part of a request target: `DELETE /a/#frag` must not delete /a/.
    if (url.includes('#')) throw new DavError(400);
    x.place = placeOf(x.opts.prefix, url);
    const run = METHODS[x.method];
    if (!run) {
      await readBody(x.req).catch(() => undefined);
      throw new DavError(405);
    }
    if (x.place.kind === 'outside' && x.method !== 'OPTIONS') throw new DavError(404);
    await run(x);
  } catch (err) {
    answerError(x, err);
  }
}

function answerError(x: Exchange, err: unknown): void {
  if (err instanceof ClientGone || x.signal.aborted) {
    if (!x.res.writableEnded) x.res.destroy();
    return;
  }
  if (x.res.headersSent) {
    // The answer was under way (a 207, a file): it can only be cut off.
    if (!x.res.writableEnded) x.res.destroy();
    return;
  }
  if (err instanceof DavError) {
    const headers: Record<string, string> = err.status === 405 ? { allow: ALLOW } : {};
    // A refused body that was not read: the connection cannot carry another request.
    if (err.status === 413) headers.connection = 'close';
    sendError(x, err, headers);
    return;
  }
  sendStatus(x, 500);
}

// The WebDAV protocol engine's interface as the module uses it. The engine itself is branch
// `davengine` (modules/webdav/dav/); until it lands this is a small stand-in with the same
// signature that answers OPTIONS, a PROPFIND of the root (the visible mounts), GET of a file and
// PUT of a file, enough to test the module around it. No protocol code beyond that lives here.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bodyOf, type ServeRequest, type ServeResponse } from '../../core/serve/request.js';
import { type Storage, StorageError } from '../../core/storage/types.js';

export interface DavAccess {
  /** Per mount name: read-write or read-only; undefined: the mount is not visible (404). */
  access(mount: string): 'rw' | 'ro' | undefined;
  user: string;
}

export interface DavMount {
  name: string;
  storageKey: string;
}

/** One event per write-ish request, for the module's log. */
export interface DavEvent {
  method: string;
  path: string;
  user: string;
  status: number;
  bytes: number;
}

/** Locks and dead properties; in memory per module runtime (kept across reloads). */
export class LockManager {}

export interface DavOptions {
  /** '/' or '/dav': canonical, no trailing slash except '/'. */
  prefix: string;
  mounts: () => readonly DavMount[];
  storage: (key: string) => Storage | undefined;
  locks: LockManager;
  log?: (event: DavEvent) => void;
}

export type DavHandler = (req: ServeRequest, res: ServeResponse, who: DavAccess) => void;

const esc = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

export function createDavHandler(opts: DavOptions): DavHandler {
  const answer = (res: ServeResponse, status: number, body = '', headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
  return (req, res, who) => {
    const url = (req.url ?? '/').split('?')[0];
    const base = opts.prefix === '/' ? '' : opts.prefix;
    if (url !== base && !url.startsWith(`${base}/`)) return answer(res, 404);
    const rest = decodeURIComponent(url.slice(base.length)).split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS')
      return answer(res, 200, '', { dav: '1, 2', 'ms-author-via': 'DAV', allow: 'OPTIONS, GET, PUT, PROPFIND' });
    const visible = opts.mounts().filter((m) => who.access(m.name));
    if (rest.length === 0) {
      if (method !== 'PROPFIND') return answer(res, 405);
      const items = visible.map(
        (m) => `<d:response><d:href>${esc(`${base}/${encodeURIComponent(m.name)}/`)}</d:href></d:response>`,
      );
      return answer(res, 207, `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">${items.join('')}</d:multistatus>`, {
        'content-type': 'application/xml; charset=utf-8',
      });
    }
    const mount = visible.find((m) => m.name === rest[0]);
    if (!mount) return answer(res, 404);
    const storage = opts.storage(mount.storageKey);
    if (!storage) return answer(res, 503);
    const path = `/${rest.slice(1).join('/')}`;
    const done = (status: number, bytes: number) =>
      opts.log?.({ method, path: `/${rest.join('/')}`, user: who.user, status, bytes });
    const fail = (err: unknown) => {
      const code = err instanceof StorageError ? err.code : 'failed';
      const status =
        code === 'notFound' ? 404 : code === 'readOnly' || code === 'denied' ? 403 : code === 'conflict' ? 409 : 500;
      if (!res.headersSent) answer(res, status);
      else res.destroy();
      if (method === 'PUT') done(status, 0);
    };
    if (method === 'GET' || method === 'HEAD') {
      storage
        .stat(path)
        .then(async (entry) => {
          res.writeHead(200, { 'content-length': String(entry.size), etag: entry.etag });
          if (method === 'HEAD') return res.end();
          const stream: Readable = await storage.read(path);
          stream.on('data', (c: Buffer) => {
            if (!res.write(c)) {
              stream.pause();
              res.once('drain', () => stream.resume());
            }
          });
          stream.on('end', () => res.end());
          stream.on('error', () => res.destroy());
        })
        .catch(fail);
      return;
    }
    if (method === 'PUT') {
      if (who.access(mount.name) !== 'rw') {
        answer(res, 403);
        return done(403, 0);
      }
      const body = bodyOf(req);
      let bytes = 0;
      storage
        .write(path, { mode: 'replace' })
        .then(async (out) => {
          if (body) {
            body.on('data', (c: Buffer) => {
              bytes += c.length;
            });
            await pipeline(body, out);
          } else out.end();
          answer(res, 201);
          done(201, bytes);
        })
        .catch(fail);
      return;
    }
    answer(res, 501);
  };
}

import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServeRequest } from '../../core/serve/request.js';
import { notModified, parseRange, rangeStillValid } from '../../core/serve/staticFile.js';
import type { Storage, StorageEntry } from '../../core/storage/types.js';
import { contentTypeOf } from './fileTypes.js';
import { onStorage } from './storageAccess.js';

/**
 * `inline` or `attachment` with the name twice: `filename*` (RFC 8187, UTF-8) for every browser
 * of the last decade, and an ASCII stand-in for the rest (no quote, backslash or `%` in it, which
 * some parsers read as escapes).
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * An AbortSignal that fires when the answer's connection closes before the answer is whole (the
 * client went away): the storage read it is given stops there.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  // Gone already (it closed while the request waited for a storage call): no 'close' will come.
  if (reply.raw.destroyed || reply.request.raw.socket?.destroyed !== false) ac.abort();
  else
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) ac.abort();
    });
  return ac.signal;
}

/** Headers every file answer of the file manager carries: never run as a page in the console's origin. */
export const FILE_SAFETY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
} as const;

/**
 * Answers a GET for a file: ETag and Last-Modified, 304 for If-None-Match / If-Modified-Since,
 * one byte range (206, 416 when none of it exists, ignored when If-Range names another version),
 * the type by name (HTML and SVG as plain text), and the bytes streamed from the storage with
 * back-pressure; the read stops when the client goes away.
 */
export async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  entry: StorageEntry,
  download: boolean,
): Promise<FastifyReply> {
  const r = req.raw as unknown as ServeRequest;
  const headers: Record<string, string> = {
    ...FILE_SAFETY_HEADERS,
    etag: entry.etag,
    'last-modified': new Date(entry.mtimeMs).toUTCString(),
    'accept-ranges': 'bytes',
    // The browser may keep it but asks again each time (the ETag makes that a 304).
    'cache-control': 'private, no-cache',
  };
  if (notModified(r, entry)) return reply.code(304).headers(headers).send();
  let start = 0;
  let end = entry.size - 1;
  let status = 200;
  const range = req.headers.range;
  if (typeof range === 'string' && rangeStillValid(r, entry)) {
    const parsed = parseRange(range, entry.size);
    if (parsed === 'unsatisfiable')
      return reply
        .code(416)
        .headers({ ...FILE_SAFETY_HEADERS, 'content-range': `bytes */${entry.size}` })
        .send();
    if (parsed) {
      [start, end] = parsed;
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${entry.size}`;
    }
  }
  headers['content-type'] = contentTypeOf(entry.name);
  headers['content-disposition'] = contentDisposition(download ? 'attachment' : 'inline', entry.name);
  headers['content-length'] = String(Math.max(0, end - start + 1));
  reply.code(status).headers(headers);
  // An empty stream, not nothing: fastify's HEAD handling answers `content-length: 0` for no
  // payload but keeps ours for a stream (and would read a real one to the end to discard it).
  if (req.method === 'HEAD' || entry.size === 0) return reply.send(Readable.from([]));
  const signal = clientGone(reply);
  const body: Readable = await onStorage(() => storage.read(entry.path, { start, end, signal }));
  return reply.send(body);
}

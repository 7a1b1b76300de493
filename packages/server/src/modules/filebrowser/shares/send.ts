// One file of a share link as bytes: a single range (resume, media seeking), ETag / If-None-Match /
// If-Range, a name in Content-Disposition, and a call when the answer carried the whole file from
// byte 0 to its end — that is what counts as a download (a resumed range does not count again).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage, StorageEntry } from '../../../core/storage/types.js';
import { contentTypeOf } from '../fileTypes.js';

/** Files are data, never a page of this origin: no script, no plug-ins, even if a browser sniffs. */
const FILE_CSP = "default-src 'none'; sandbox";

/** `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266 / 8187). */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

type Range = { start: number; end: number } | 'unsatisfiable' | undefined;

/** One `bytes=a-b` / `bytes=a-` / `bytes=-n` range; several ranges or junk read as none (whole file). */
export function parseRange(header: string | undefined, size: number): Range {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const tagMatches = (header: string | undefined, etag: string): boolean =>
  header?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*') === true;

/**
 * Answers `entry` of `storage`. `whole` runs once the whole file went out (not for HEAD, 304, or a
 * range that leaves something out).
 */
export async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  entry: StorageEntry,
  disposition: 'attachment' | 'inline',
  whole: () => void,
): Promise<FastifyReply> {
  const size = entry.size;
  reply
    .header('etag', entry.etag)
    .header('last-modified', new Date(entry.mtimeMs).toUTCString())
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-cache')
    .header('content-security-policy', FILE_CSP)
    .header('content-type', contentTypeOf(entry.name))
    .header('content-disposition', contentDisposition(disposition, entry.name));
  if (tagMatches(req.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  const ifRange = req.headers['if-range'];
  let range = parseRange(req.headers.range, size);
  if (ifRange !== undefined && ifRange !== entry.etag) range = undefined;
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', String(Math.max(0, end - start + 1)));
  if (req.method === 'HEAD' || size === 0) {
    if (size === 0 && req.method !== 'HEAD') whole();
    return reply.send();
  }
  const ac = new AbortController();
  const res = reply.raw;
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  res.once('finish', () => {
    if (start === 0 && end === size - 1) whole();
  });
  const stream = await storage.read(entry.path, { start, end, signal: ac.signal });
  return reply.send(stream);
}

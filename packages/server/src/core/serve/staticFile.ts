import { createReadStream } from 'node:fs';
import type { FileEntry } from './fileCache.js';
import { sendPage } from './pages.js';
import type { ServeRequest, ServeResponse } from './request.js';

/** Read size for files streamed from disk: large reads keep big downloads near disk speed. */
const STREAM_CHUNK = 512 * 1024;

/** What validators are computed from (a cached file here; a storage entry for WebDAV). */
export type Validated = Pick<FileEntry, 'etag' | 'mtimeMs'>;

/** `If-None-Match` against an ETag: weak comparison, `*` matches. */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** 304 per RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since. */
export function notModified(req: ServeRequest, e: Validated): boolean {
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string') return etagMatches(inm, e.etag);
  const ims = req.headers['if-modified-since'];
  if (typeof ims !== 'string') return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(e.mtimeMs / 1000) * 1000 <= since;
}

/**
 * One `bytes=` range of a file of `size` bytes: [start, end] inclusive, 'unsatisfiable',
 * or undefined when the header is to be ignored (malformed, or several ranges: the whole file).
 */
export function parseRange(header: string, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    const last = m[2] === '' ? Number.POSITIVE_INFINITY : Number(m[2]);
    if (last < start) return undefined; // not a valid range: ignored (RFC 9110 §14.1.1)
    end = Math.min(last, size - 1);
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return [start, end];
}

/**
 * `If-Range`: the range applies only while the file is still the one the client has part of.
 * An entity tag matches only strongly (RFC 9110 §13.1.5), so a weak one never does.
 */
export function rangeStillValid(req: ServeRequest, e: Validated): boolean {
  const ifRange = req.headers['if-range'];
  if (typeof ifRange !== 'string') return true;
  if (ifRange.startsWith('W/')) return false;
  if (ifRange.startsWith('"')) return !e.etag.startsWith('W/') && ifRange === e.etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(e.mtimeMs / 1000) * 1000 <= date;
}

/**
 * Answer a GET or HEAD for a file: validators, 304, single ranges (206 / 416), the
 * body from memory when the cache holds it, else streamed from disk with back-pressure.
 */
export function sendFileEntry(
  req: ServeRequest,
  res: ServeResponse,
  e: FileEntry,
  extraHeaders: Record<string, string>,
): void {
  const head = req.method === 'HEAD';
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'last-modified': e.lastModified,
    etag: e.etag,
    'cache-control': 'public, max-age=0',
    ...extraHeaders,
  };
  if (notModified(req, e)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  let start = 0;
  let end = e.size - 1;
  let status = 200;
  const rangeHeader = req.headers.range;
  if (typeof rangeHeader === 'string' && rangeStillValid(req, e)) {
    const range = parseRange(rangeHeader, e.size);
    if (range === 'unsatisfiable') {
      sendPage(res, 416, '', { ...extraHeaders, 'content-range': `bytes */${e.size}` }, head);
      return;
    }
    if (range) {
      [start, end] = range;
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${e.size}`;
    }
  }
  headers['content-type'] = e.contentType;
  headers['content-length'] = String(Math.max(0, end - start + 1));
  if (head || e.size === 0) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if (e.body) {
    res.writeHead(status, headers);
    res.end(start === 0 && end === e.body.length - 1 ? e.body : e.body.subarray(start, end + 1));
    return;
  }
  const stream = createReadStream(e.real, { start, end, highWaterMark: STREAM_CHUNK });
  stream.once('open', () => {
    res.writeHead(status, headers);
    // As stream.pipe(res) would: pause while the client is slow, end with the file.
    stream.on('data', (chunk: Buffer | string) => {
      if (!res.write(chunk)) stream.pause();
    });
    res.on('drain', () => stream.resume());
    stream.once('end', () => res.end());
  });
  stream.on('error', () => {
    if (!res.headersSent) sendPage(res, 404, '', extraHeaders, head);
    else res.destroy();
  });
  res.once('close', () => stream.destroy());
}

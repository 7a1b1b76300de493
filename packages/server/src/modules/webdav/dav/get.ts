// GET / HEAD: files with their validators (304 / 412), single byte ranges (206 / 416) and the
// body streamed from the storage with back-pressure; folders as a plain HTML index, so a browser
// pointed at the service shows something useful.
import type { Readable } from 'node:stream';
import { contentTypeOf } from '../../../core/serve/fileCache.js';
import { parseRange, rangeStillValid } from '../../../core/serve/staticFile.js';
import type { StorageEntry } from '../../../core/storage/types.js';
import { quiet, readBody } from './body.js';
import { checkIf, httpPreconditions } from './conditions.js';
import { DavError, davErrorOf } from './errors.js';
import { type Exchange, type Resource, resourceOf, sendStatus, writeChunk } from './exchange.js';
import { hrefOf, rootHref } from './wirePath.js';
import { escapeXml } from './xml.js';

export async function get(x: Exchange): Promise<void> {
  await readBody(x.req);
  const place = x.place;
  if (place.kind === 'root') {
    const links: [string, string][] = [];
    for (const m of x.opts.mounts())
      if (x.who.access(m.name)) links.push([hrefOf(x.opts.prefix, m.name, '/', true), `${m.name}/`]);
    await index(x, rootHref(x.opts.prefix), links);
    return;
  }
  if (place.kind !== 'mount') throw new DavError(404);
  const r = resourceOf(x, place);
  let entry: StorageEntry;
  try {
    entry = await r.storage.stat(r.path);
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  await checkIf(x, r);
  const pre = httpPreconditions(x, entry);
  const validators = { etag: entry.etag, 'last-modified': new Date(entry.mtimeMs).toUTCString() };
  if (pre) {
    sendStatus(x, pre, pre === 304 ? validators : {});
    return;
  }
  if (entry.kind === 'dir') {
    await folderIndex(x, r);
    return;
  }
  await sendFile(x, r, entry, validators);
}

async function sendFile(
  x: Exchange,
  r: Resource,
  entry: StorageEntry,
  validators: Record<string, string>,
): Promise<void> {
  const headers: Record<string, string> = {
    ...validators,
    'accept-ranges': 'bytes',
    'content-type': contentTypeOf(entry.name),
    'x-content-type-options': 'nosniff',
  };
  let start = 0;
  let end = entry.size - 1;
  let status = 200;
  const range = x.req.headers.range;
  if (typeof range === 'string' && rangeStillValid(x.req, entry)) {
    const parsed = parseRange(range, entry.size);
    if (parsed === 'unsatisfiable') {
      sendStatus(x, 416, { 'content-range': `bytes */${entry.size}` });
      return;
    }
    if (parsed) {
      [start, end] = parsed;
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${entry.size}`;
    }
  }
  headers['content-length'] = String(Math.max(0, end - start + 1));
  if (x.method === 'HEAD' || entry.size === 0) {
    x.res.writeHead(status, headers);
    x.res.end();
    return;
  }
  let body: Readable;
  try {
    body = quiet(await r.storage.read(r.path, { start, end, signal: x.signal }));
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  await pump(x, body, status, headers);
}

/** Stream a storage body out (the head goes with the first bytes, so a read error can still be a 500). */
function pump(x: Exchange, body: Readable, status: number, headers: Record<string, string>): Promise<void> {
  const { res } = x;
  return new Promise((resolve) => {
    let started = false;
    const finish = () => {
      x.signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      body.destroy();
      finish();
    };
    x.signal.addEventListener('abort', onAbort, { once: true });
    body.on('data', (chunk: Buffer) => {
      if (!started) {
        started = true;
        res.writeHead(status, headers);
      }
      if (!res.write(chunk)) {
        body.pause();
        res.once('drain', () => body.resume());
      }
    });
    body.once('end', () => {
      if (!started) res.writeHead(status, headers);
      res.end();
      finish();
    });
    body.once('error', (err) => {
      if (x.signal.aborted) return finish();
      if (!res.headersSent) sendStatus(x, davErrorOf(err, 'read').status);
      else res.destroy();
      finish();
    });
  });
}

async function folderIndex(x: Exchange, r: Resource): Promise<void> {
  let entries: StorageEntry[];
  try {
    entries = await r.storage.list(r.path, { signal: x.signal });
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  entries.sort((a, b) =>
    a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind === 'dir' ? -1 : 1,
  );
  const base = hrefOf(x.opts.prefix, r.mount.name, r.path, true);
  const links: [string, string][] = [['../', '../']];
  for (const e of entries) {
    const dir = e.kind === 'dir';
    links.push([`${base}${encodeURIComponent(e.name)}${dir ? '/' : ''}`, `${e.name}${dir ? '/' : ''}`]);
  }
  await index(x, base, links);
}

/** A minimal HTML index, streamed (a folder can be large); names escaped, no script runs. */
async function index(x: Exchange, title: string, links: [string, string][]): Promise<void> {
  x.res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'",
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  if (x.method === 'HEAD') {
    x.res.end();
    return;
  }
  let batch = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeXml(title)}</title></head><body><h1>${escapeXml(title)}</h1><ul>\n`;
  for (const [href, text] of links) {
    batch += `<li><a href="${escapeXml(href)}">${escapeXml(text)}</a></li>\n`;
    if (batch.length > 32 * 1024) {
      if (!(await writeChunk(x, batch))) return;
      batch = '';
    }
  }
  batch += '</ul></body></html>\n';
  if (await writeChunk(x, batch)) x.res.end();
}

import { promises as fs } from 'node:fs';
import { sameSiteLocation } from '../http/canonicalPath.js';
import { FileCache } from './fileCache.js';
import { sendPage } from './pages.js';
import type { ServeRequest, ServeResponse } from './request.js';
import { sendFileEntry } from './staticFile.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A local directory served under a URL path. */
export interface FileMount {
  /** The URL path it answers under (`/` for the whole site). */
  urlPath: string;
  dir: string;
  /** Shown in the title of its directory listings ('' for none). */
  name: string;
}

/** How a site serves its files. */
export interface FileOptions {
  /** Answers for a directory when present ('' for none). */
  indexFile: string;
  /** List a directory without an index file (else 403). */
  listDirs: boolean;
  /** Serve names starting with `.` (else 404). */
  hiddenFiles: boolean;
}

/** One cache for all sites: keys are mount directory + path, so sites sharing a directory share it. */
const cache = new FileCache();

/**
 * Static files from a local mount (undefined: no mount covers the path, 404). `rawPath` is the
 * request's canonical path (core/http/canonicalPath.ts: no `//`, no dot segments, no encoded `/`
 * `\` or NUL), the one basic auth and the filters looked at, under `mount.urlPath`; `query` is
 * the query as sent ('' or `?…`). The path is still confined three ways: decoded segments may
 * not be `..` or `.`, the joined path must stay under the mount, and its real path (symlinks
 * resolved) must too. Lookups are cached for a second (fileCache.ts); small files are answered
 * from memory.
 */
export async function serveFiles(
  req: ServeRequest,
  res: ServeResponse,
  mount: FileMount | undefined,
  s: FileOptions,
  extraHeaders: Record<string, string>,
  rawPath: string,
  query: string,
): Promise<void> {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendPage(res, 405, '', { allow: 'GET, HEAD', ...extraHeaders });
  if (!mount) return sendPage(res, 404, '', extraHeaders, head);
  const base = mount.urlPath.endsWith('/') ? mount.urlPath.slice(0, -1) : mount.urlPath;
  let rel: string;
  try {
    rel = decodeURIComponent(rawPath.slice(base.length));
  } catch {
    return sendPage(res, 400, 'bad path encoding', extraHeaders, head);
  }
  const segments = rel.split(/[/\\]/).filter(Boolean);
  if (rel.includes('\0') || segments.some((x) => x === '..' || x === '.'))
    return sendPage(res, 403, '', extraHeaders, head);
  if (!s.hiddenFiles && segments.some((x) => x.startsWith('.'))) return sendPage(res, 404, '', extraHeaders, head);

  const found = cache.lookup(mount.dir, segments);
  const entry = found instanceof Promise ? await found : found;
  if (entry.kind === 'outside') return sendPage(res, 403, '', extraHeaders, head);
  if (entry.kind === 'missing') return sendPage(res, 404, '', extraHeaders, head);
  if (entry.kind === 'file') return sendFileEntry(req, res, entry, extraHeaders);

  // A directory: slash first, then the homepage, then the listing if it is on.
  if (!rawPath.endsWith('/')) {
    res.writeHead(301, {
      // The canonical path has no `//`, and sameSiteLocation makes sure: never `//evil.com/`.
      location: sameSiteLocation(`${rawPath}/${query}`),
      ...extraHeaders,
    });
    res.end();
    return;
  }
  if (s.indexFile) {
    const index = await cache.lookup(mount.dir, [...segments, s.indexFile]);
    if (index.kind === 'file') return sendFileEntry(req, res, index, extraHeaders);
  }
  if (!s.listDirs) return sendPage(res, 403, 'Directory listing is off.', extraHeaders, head);
  return listDirectory(res, entry.real, rawPath, mount.name, s, extraHeaders, head);
}

async function listDirectory(
  res: ServeResponse,
  dir: string,
  urlPath: string,
  title: string,
  s: FileOptions,
  extraHeaders: Record<string, string>,
  head: boolean,
): Promise<void> {
  const entries = (await fs.readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => s.hiddenFiles || !e.name.startsWith('.'))
    .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
  const rows = entries
    .map((e) => {
      const name = e.name + (e.isDirectory() ? '/' : '');
      return `<li><a href="${esc(encodeURIComponent(e.name) + (e.isDirectory() ? '/' : ''))}">${esc(name)}</a></li>`;
    })
    .join('\n');
  const heading = esc(title ? `${title} — ${decodeURIComponent(urlPath)}` : decodeURIComponent(urlPath));
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${heading}</title></head><body><h1>${heading}</h1><ul>\n${urlPath !== '/' ? '<li><a href="../">../</a></li>\n' : ''}${rows}\n</ul></body></html>\n`;
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...extraHeaders,
  });
  if (head) res.end();
  else res.end(body);
}

import { promises as fs } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { ReverseproxyService } from '@lucky/shared';
import send from 'send';
import type { AnyRequest, AnyResponse } from './listener.js';
import { sendPage } from './pages.js';
import { underPrefix } from './router.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The mount with the longest URL path that covers `urlPath`. */
function mountFor(s: ReverseproxyService, urlPath: string) {
  return [...s.mounts]
    .filter((m) => m.type === 'local' && underPrefix(urlPath, m.urlPath))
    .sort((a, b) => b.urlPath.length - a.urlPath.length)[0];
}

/** Inside `root` (both real paths)? */
const inside = (root: string, p: string) =>
  p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * Static files from local mounts. The path is confined three ways: decoded
 * segments may not be `..` (so `%2e%2e` is refused too), the joined path must
 * stay under the mount, and its real path (symlinks resolved) must too.
 * Range requests, ETag and Last-Modified come from `send`.
 */
export async function serveFiles(
  req: AnyRequest,
  res: AnyResponse,
  s: ReverseproxyService,
  extraHeaders: Record<string, string>,
): Promise<void> {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendPage(res, 405, '', { allow: 'GET, HEAD', ...extraHeaders });
  const rawPath = (req.url ?? '/').split('?')[0];
  const mount = mountFor(s, rawPath);
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

  let root: string;
  let real: string;
  try {
    root = await fs.realpath(mount.dir);
    const joined = path.join(root, ...segments);
    if (!inside(root, joined)) return sendPage(res, 403, '', extraHeaders, head);
    real = await fs.realpath(joined);
  } catch {
    return sendPage(res, 404, '', extraHeaders, head);
  }
  if (!inside(root, real)) return sendPage(res, 403, '', extraHeaders, head);

  const stat = await fs.stat(real).catch(() => undefined);
  if (!stat) return sendPage(res, 404, '', extraHeaders, head);
  if (stat.isDirectory()) {
    if (!rawPath.endsWith('/')) {
      const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
      (res as http.ServerResponse).writeHead(301, { location: `${rawPath}/${query}`, ...extraHeaders });
      res.end();
      return;
    }
    if (s.indexFile) {
      const index = await fs.realpath(path.join(real, s.indexFile)).catch(() => undefined);
      const indexStat = index && inside(root, index) ? await fs.stat(index).catch(() => undefined) : undefined;
      if (index && indexStat?.isFile()) return sendFile(req, res, root, index, extraHeaders);
    }
    if (!s.listDirs) return sendPage(res, 403, 'Directory listing is off.', extraHeaders, head);
    return listDirectory(res, real, rawPath, mount.name, s, extraHeaders, head);
  }
  if (!stat.isFile()) return sendPage(res, 404, '', extraHeaders, head);
  return sendFile(req, res, root, real, extraHeaders);
}

function sendFile(
  req: AnyRequest,
  res: AnyResponse,
  root: string,
  file: string,
  extraHeaders: Record<string, string>,
): Promise<void> {
  return new Promise((resolve) => {
    const rel = path
      .relative(root, file)
      .split(path.sep)
      .map((x) => encodeURIComponent(x))
      .join('/');
    const stream = send(req as http.IncomingMessage, `/${rel}`, {
      root,
      dotfiles: 'allow', // hidden files were refused above when they are off
      index: false,
      etag: true,
      lastModified: true,
      cacheControl: !extraHeaders['cache-control'],
    });
    stream.on('headers', (r: http.ServerResponse) => {
      for (const [k, v] of Object.entries(extraHeaders)) r.setHeader(k, v);
    });
    stream.on('error', (err: { status?: number }) => {
      sendPage(res, err.status && err.status >= 400 ? err.status : 500, '', extraHeaders, req.method === 'HEAD');
      resolve();
    });
    stream.on('end', () => resolve());
    res.on('close', () => resolve());
    stream.pipe(res as http.ServerResponse);
  });
}

async function listDirectory(
  res: AnyResponse,
  dir: string,
  urlPath: string,
  title: string,
  s: ReverseproxyService,
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
  (res as http.ServerResponse).writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...extraHeaders,
  });
  if (head) res.end();
  else res.end(body);
}

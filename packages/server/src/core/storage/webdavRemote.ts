// A remote WebDAV server (RFC 4918) as a Storage: the storage's root is the URL's folder. Plain
// node:http / node:https with one keep-alive agent per storage (closed on close()); Basic auth
// sent with every request (Digest is not spoken: a server that only offers it answers `denied`).
// Answers are bounded: a PROPFIND body over `maxPropfindBytes` is refused, headers and idle
// sockets have time-outs, redirects are not followed (a collection's trailing-slash redirect
// aside). Multistatus bodies are parsed with saxes (namespace-aware, no DTD or external entity is
// ever expanded, so a hostile server cannot make us fetch or blow up anything).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, Readable, Transform, Writable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { checkPath, isWithin } from './paths.js';
import {
  type ReadOptions,
  type Storage,
  type StorageEntry,
  StorageError,
  type StorageErrorCode,
  type StorageSpace,
  type WriteOptions,
} from './types.js';

export interface WebdavRemoteOptions {
  key: string;
  /** http(s) URL of the remote folder that is the storage's root. */
  url: string;
  user: string;
  password: string;
  /** Check the server's certificate (https). */
  tlsVerify: boolean;
  readOnly: boolean;
  /** Connect + answer head, and any silence on a socket, before the request fails (default 30 s). */
  timeoutMs?: number;
  /** Largest PROPFIND answer accepted (default 64 MiB, ~100k entries). */
  maxPropfindBytes?: number;
  /** Parallel connections to the server (default 8). */
  maxSockets?: number;
}

const DAV = 'DAV:';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_PROPFIND_CAP = 64 * 1024 * 1024;
// Small answers we read whole (errors, PUT / MKCOL bodies): never more than this.
const SMALL_BODY_CAP = 64 * 1024;

const PROPFIND_ENTRY = `<?xml version="1.0" encoding="utf-8"?>
<D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/><D:creationdate/></D:prop></D:propfind>`;
const PROPFIND_QUOTA = `<?xml version="1.0" encoding="utf-8"?>
<D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:quota-available-bytes/><D:quota-used-bytes/></D:prop></D:propfind>`;

/** One `<D:response>` of a multistatus: its href and the properties a 2xx propstat carried. */
export interface DavResponse {
  href: string;
  /** The response's own status (a response without propstat), e.g. 404. */
  status?: number;
  collection: boolean;
  props: Map<string, string>;
}

const statusCode = (line: string): number | undefined => {
  const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/i.exec(line.trim());
  return m ? Number(m[1]) : undefined;
};

/**
 * A multistatus body to its responses (DAV: properties by local name; others by `{ns}local`).
 * Only text of the properties we ask for is kept; anything that is not well-formed XML or not a
 * multistatus is `badAnswer`.
 */
export function parseMultistatus(xml: string, path = '/'): DavResponse[] {
  const parser = new SaxesParser({ xmlns: true });
  const out: DavResponse[] = [];
  const stack: string[] = [];
  let cur:
    | {
        href: string;
        status?: number;
        propstats: { status?: number; props: Map<string, string>; collection: boolean }[];
      }
    | undefined;
  let ps: { status?: number; props: Map<string, string>; collection: boolean } | undefined;
  let text = '';
  let failure: Error | undefined;
  let root: string | undefined;
  const name = (uri: string | undefined, local: string | undefined) =>
    uri === DAV ? (local ?? '') : `{${uri ?? ''}}${local ?? ''}`;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (tag) => {
    const n = name(tag.uri, tag.local);
    root ??= n;
    stack.push(n);
    text = '';
    if (n === 'response') cur = { href: '', propstats: [] };
    else if (n === 'propstat' && cur) ps = { props: new Map(), collection: false };
    else if (n === 'collection' && ps && stack.includes('resourcetype')) ps.collection = true;
  });
  parser.on('text', (t) => {
    // Bounded by the body cap; the text of one element at a time.
    text += t;
  });
  parser.on('closetag', (tag) => {
    const n = name(tag.uri, tag.local);
    stack.pop();
    const parent = stack[stack.length - 1];
    if (!cur) return;
    if (n === 'href' && parent === 'response') cur.href = text.trim();
    else if (n === 'status' && parent === 'response') cur.status = statusCode(text);
    else if (n === 'status' && parent === 'propstat' && ps) ps.status = statusCode(text);
    else if (parent === 'prop' && ps && n !== 'resourcetype') ps.props.set(n, text.trim());
    else if (n === 'propstat' && ps) {
      cur.propstats.push(ps);
      ps = undefined;
    } else if (n === 'response') {
      const props = new Map<string, string>();
      let collection = false;
      for (const p of cur.propstats) {
        if (p.status !== undefined && (p.status < 200 || p.status > 299)) continue;
        for (const [k, v] of p.props) props.set(k, v);
        collection ||= p.collection;
      }
      out.push({ href: cur.href, status: cur.status, collection, props });
      cur = undefined;
    }
    text = '';
  });
  try {
    parser.write(xml).close();
  } catch (e) {
    failure ??= e as Error;
  }
  if (failure) throw new StorageError('badAnswer', path, `XML: ${failure.message.slice(0, 200)}`);
  if (root !== 'multistatus') throw new StorageError('badAnswer', path, `not a multistatus (${root ?? 'empty'})`);
  return out;
}

/** Decoded path segments of an href (absolute URL or absolute path), as the server spells them. */
function hrefSegments(href: string, base: URL): string[] | undefined {
  let pathname: string;
  try {
    pathname = new URL(href, base).pathname;
  } catch {
    return undefined;
  }
  const segs: string[] = [];
  for (const s of pathname.split('/')) {
    if (s === '') continue;
    try {
      segs.push(decodeURIComponent(s));
    } catch {
      return undefined;
    }
  }
  return segs;
}

/** A name that has another Unicode spelling (NFD) a server may have stored instead of ours (NFC). */
const hasOtherSpelling = (seg: string) => seg.normalize('NFD') !== seg;

// Names a server stores decomposed, remembered per storage: enough for large folders, cleared
// whole when full (the next listing learns them again).
const SPELLINGS_MAX = 10_000;

const HTTP_CODES: Record<number, StorageErrorCode> = {
  401: 'denied',
  403: 'denied',
  404: 'notFound',
  405: 'exists',
  409: 'conflict',
  412: 'exists',
  413: 'noSpace',
  423: 'denied',
  507: 'noSpace',
};

function networkError(e: unknown, path: string): StorageError {
  if (e instanceof StorageError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.name === 'AbortError') return new StorageError('failed', path, 'aborted');
  const code = err?.code ?? '';
  // Refused or reset connections, DNS failures, time-outs and certificate problems (codes like
  // DEPTH_ZERO_SELF_SIGNED_CERT): the server is not reachable as configured.
  // Everything else on the way (a socket error, a parser error of a broken answer) is the server
  // not answering usably; the detail keeps the system's words.
  const message = err?.message ?? String(e);
  const detail = code && !message.includes(code) ? `${code}: ${message}` : message;
  return new StorageError('unreachable', path, detail.slice(0, 300));
}

function httpError(status: number, path: string, method: string): StorageError {
  return new StorageError(
    HTTP_CODES[status] ?? (status >= 500 ? 'failed' : 'badAnswer'),
    path,
    `${method} HTTP ${status}`,
  );
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function createWebdavStorage(opts: WebdavRemoteOptions): Storage {
  return new WebdavStorage(opts);
}

class WebdavStorage implements Storage {
  readonly key: string;
  readonly kind = 'webdav' as const;
  readonly readOnly: boolean;
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly auth?: string;
  private readonly timeoutMs: number;
  private readonly propfindCap: number;
  private closed = false;

  constructor(opts: WebdavRemoteOptions) {
    this.key = opts.key;
    this.readOnly = opts.readOnly;
    const base = new URL(opts.url);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new StorageError('failed', '/', 'notHttp');
    base.search = '';
    base.hash = '';
    base.username = '';
    base.password = '';
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.base = base;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.propfindCap = opts.maxPropfindBytes ?? DEFAULT_PROPFIND_CAP;
    const agentOpts = { keepAlive: true, maxSockets: opts.maxSockets ?? 8, maxFreeSockets: 4, timeout: this.timeoutMs };
    this.agent =
      base.protocol === 'https:'
        ? new https.Agent({ ...agentOpts, rejectUnauthorized: opts.tlsVerify })
        : new http.Agent(agentOpts);
    if (opts.user !== '' || opts.password !== '') {
      this.auth = `Basic ${Buffer.from(`${opts.user}:${opts.password}`, 'utf8').toString('base64')}`;
    }
  }

  /**
   * Canonical (NFC) path → the server's own spelling, for names a server (or a Mac writing to it)
   * stored decomposed: learnt from listings, so a path we got from `list` reaches its file.
   */
  private spellings = new Map<string, string>();

  private remember(canonical: string, raw: string): void {
    if (canonical === raw) return;
    if (this.spellings.size >= SPELLINGS_MAX) this.spellings.clear();
    this.spellings.set(canonical, raw);
  }

  /** The server's spelling of a canonical path (prefixes it has spelt otherwise replaced). */
  private rawPath(p: string): string {
    if (p === '/') return '/';
    let raw = '';
    let canonical = '';
    for (const seg of p.slice(1).split('/')) {
      canonical += `/${seg}`;
      raw = this.spellings.get(canonical) ?? `${raw}/${seg}`;
    }
    return raw;
  }

  /**
   * Before a request for a path with a name that could be spelt otherwise and is not known yet:
   * list its parents to learn how the server spells it. Names without another spelling (ASCII,
   * Chinese …) never cost a request.
   */
  private async learnSpelling(p: string): Promise<void> {
    if (p === '/') return;
    const segs = p.slice(1).split('/');
    let canonical = '';
    for (const seg of segs) {
      const parent = canonical === '' ? '/' : canonical;
      canonical += `/${seg}`;
      if (!hasOtherSpelling(seg) || this.spellings.has(canonical)) continue;
      try {
        await this.list(parent);
      } catch {
        return;
      }
      // Not there under another spelling: it is new (or absent), and ours is the one to use.
      if (!this.spellings.has(canonical)) return;
    }
  }

  /** The URL of a storage path (each segment percent-encoded; `dir` adds the trailing slash). */
  private urlOf(p: string, dir = false): URL {
    const raw = this.rawPath(p);
    const rel = raw === '/' ? '' : raw.slice(1).split('/').map(encodeURIComponent).join('/');
    const u = new URL(this.base.href);
    u.pathname = `${this.base.pathname}${rel}${dir && rel !== '' ? '/' : ''}`;
    return u;
  }

  /** Send one request; the answer's head, and its body read whole up to `cap` (or the stream). */
  private send(
    method: string,
    url: URL,
    p: string,
    o: { headers?: Record<string, string>; body?: string; signal?: AbortSignal },
  ): Promise<IncomingMessage> {
    if (this.closed) return Promise.reject(new StorageError('unreachable', p, 'closed'));
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'user-agent': 'lucky-storage', ...o.headers };
      if (this.auth) headers.authorization = this.auth;
      if (o.body !== undefined) {
        headers['content-type'] ??= 'application/xml; charset=utf-8';
        headers['content-length'] = String(Buffer.byteLength(o.body));
      }
      const req = mod.request(url, { method, headers, agent: this.agent, signal: o.signal });
      req.setTimeout(this.timeoutMs, () =>
        req.destroy(new StorageError('unreachable', p, `${method}: no answer within ${this.timeoutMs} ms`)),
      );
      req.on('response', (res) => {
        // After the head, the socket time-out guards silence in the body; the request's own
        // time-out would also fire while a consumer is merely slow, so the socket's is kept.
        resolve(res);
      });
      req.on('error', (e) => reject(networkError(e, p)));
      req.end(o.body);
    });
  }

  private async readBody(res: IncomingMessage, cap: number, p: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res) {
        size += (c as Buffer).length;
        if (size > cap) {
          res.destroy();
          throw new StorageError('badAnswer', p, `answer larger than ${cap} bytes`);
        }
        parts.push(c as Buffer);
      }
    } catch (e) {
      throw networkError(e, p);
    }
    return Buffer.concat(parts);
  }

  private async request(
    method: string,
    url: URL,
    p: string,
    o: { headers?: Record<string, string>; body?: string; signal?: AbortSignal; cap?: number } = {},
  ): Promise<Answer> {
    const res = await this.send(method, url, p, o);
    const body = await this.readBody(res, o.cap ?? SMALL_BODY_CAP, p);
    return { status: res.statusCode ?? 0, headers: res.headers, body };
  }

  /**
   * PROPFIND at a path; a collection asked for without its trailing slash may answer with a
   * redirect to the slash form, which is followed once (and only that redirect).
   */
  private async propfind(
    p: string,
    depth: '0' | '1',
    body: string,
    dir: boolean,
    signal?: AbortSignal,
  ): Promise<DavResponse[]> {
    let url = this.urlOf(p, dir);
    for (let attempt = 0; attempt < 2; attempt++) {
      const a = await this.request('PROPFIND', url, p, { headers: { depth }, body, signal, cap: this.propfindCap });
      if ((a.status === 301 || a.status === 302 || a.status === 307 || a.status === 308) && attempt === 0) {
        const loc = a.headers.location ? new URL(a.headers.location, url) : undefined;
        const slash = this.urlOf(p, true);
        if (loc && loc.origin === slash.origin && loc.pathname === slash.pathname) {
          url = slash;
          continue;
        }
      }
      if (a.status !== 207) throw httpError(a.status, p, 'PROPFIND');
      return parseMultistatus(a.body.toString('utf8'), p);
    }
    throw new StorageError('badAnswer', p, 'PROPFIND redirected twice');
  }

  private toEntry(r: DavResponse, name: string, p: string): StorageEntry {
    const size = r.collection ? 0 : Number(r.props.get('getcontentlength') ?? 0);
    const modified = Date.parse(r.props.get('getlastmodified') ?? '');
    const created = Date.parse(r.props.get('creationdate') ?? '');
    const mtimeMs = Number.isFinite(modified) ? modified : 0;
    let etag = r.props.get('getetag') ?? '';
    etag = etag.replace(/^W\//, '');
    if (etag === '') etag = `"${size.toString(36)}-${mtimeMs.toString(36)}"`;
    else if (!etag.startsWith('"')) etag = `"${etag}"`;
    return {
      name,
      path: p,
      kind: r.collection ? 'dir' : 'file',
      size: Number.isFinite(size) && size >= 0 ? size : 0,
      mtimeMs,
      birthtimeMs: Number.isFinite(created) ? created : mtimeMs,
      etag,
    };
  }

  private refuseWrites(p: string): void {
    if (this.readOnly) throw new StorageError('readOnly', p);
  }

  // ---- reading ----

  async stat(raw: string): Promise<StorageEntry> {
    const p = checkPath(raw);
    await this.learnSpelling(p);
    const rs = await this.propfind(p, '0', PROPFIND_ENTRY, p === '/');
    const self = rs.find((r) => r.status === undefined || (r.status >= 200 && r.status < 300)) ?? rs[0];
    if (!self) throw new StorageError('badAnswer', p, 'empty multistatus');
    if (self.status === 404) throw new StorageError('notFound', p);
    const raw2 = this.rawPath(p);
    return this.toEntry(self, p === '/' ? '' : raw2.slice(raw2.lastIndexOf('/') + 1), p);
  }

  async list(raw: string, o?: { signal?: AbortSignal }): Promise<StorageEntry[]> {
    const p = checkPath(raw);
    await this.learnSpelling(p);
    // Without the trailing slash: a file then answers itself (notDir) where Apache would refuse
    // `file/` with a 400; a collection may redirect to its slash form, which propfind follows.
    const rs = await this.propfind(p, '1', PROPFIND_ENTRY, p === '/', o?.signal);
    const nfc = (segs: string[]) => segs.map((x) => x.normalize('NFC'));
    const want = nfc(hrefSegments(this.urlOf(p, true).pathname, this.base) ?? []);
    const out: StorageEntry[] = [];
    let selfSeen = false;
    const seen = new Set<string>();
    for (const r of rs) {
      const rawSegs = hrefSegments(r.href, this.base);
      if (!rawSegs) continue;
      const segs = nfc(rawSegs);
      if (segs.length === want.length && segs.every((s, i) => s === want[i])) {
        selfSeen = true;
        if (!r.collection) throw new StorageError('notDir', p);
        continue;
      }
      // A child is one segment below the folder asked for; anything else (a server listing
      // elsewhere) is not ours to show.
      if (segs.length !== want.length + 1 || !want.every((s, i) => s === segs[i])) continue;
      const name = rawSegs[rawSegs.length - 1];
      let childPath: string;
      try {
        childPath = checkPath(`${p}/${name}`);
      } catch {
        continue;
      }
      if (seen.has(childPath)) continue;
      seen.add(childPath);
      this.remember(childPath, `${p === '/' ? '' : this.rawPath(p)}/${name}`);
      out.push(this.toEntry(r, name, childPath));
    }
    if (!selfSeen && rs.length === 1 && !rs[0].collection) throw new StorageError('notDir', p);
    return out;
  }

  async read(raw: string, o: ReadOptions = {}): Promise<Readable> {
    const p = checkPath(raw);
    const start = o.start ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new StorageError('failed', p, 'badRange');
    if (o.end !== undefined && (!Number.isSafeInteger(o.end) || o.end < -1))
      throw new StorageError('failed', p, 'badRange');
    if (o.end !== undefined && o.end < start) return Readable.from([]);
    const headers: Record<string, string> = { 'accept-encoding': 'identity' };
    const ranged = start > 0 || o.end !== undefined;
    if (ranged) headers.range = `bytes=${start}-${o.end ?? ''}`;
    await this.learnSpelling(p);
    const res = await this.send('GET', this.urlOf(p), p, { headers, signal: o.signal });
    const status = res.statusCode ?? 0;
    if (status === 416) {
      res.resume();
      return Readable.from([]);
    }
    if (status !== 200 && status !== 206) {
      res.resume();
      throw httpError(status, p, 'GET');
    }
    if (status === 200 && ranged) {
      // The server ignored the range: cut it out of the whole body ourselves.
      return pipeline(res, sliceStream(start, o.end), () => undefined);
    }
    return res;
  }

  // ---- writing ----

  async write(raw: string, o: WriteOptions): Promise<Writable> {
    const p = checkPath(raw);
    this.refuseWrites(p);
    if (p === '/') throw new StorageError('isDir', p);
    if (o.mode === 'append' || o.mode === 'offset') throw new StorageError('failed', p, 'notSupported');
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    // create: the server refuses (412) when something is there (RFC 7232 If-None-Match: *).
    if (o.mode === 'create') headers['if-none-match'] = '*';
    await this.learnSpelling(p);
    return new PutStream(this, p, headers, o.signal);
  }

  /** Opens the PUT request (used by PutStream): chunked, the answer awaited at the end. */
  openPut(
    p: string,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): { req: http.ClientRequest; answer: Promise<number> } {
    const url = this.urlOf(p);
    const mod = url.protocol === 'https:' ? https : http;
    const h: Record<string, string> = { 'user-agent': 'lucky-storage', ...headers };
    if (this.auth) h.authorization = this.auth;
    const req = mod.request(url, { method: 'PUT', headers: h, agent: this.agent, signal });
    req.setTimeout(this.timeoutMs, () =>
      req.destroy(new StorageError('unreachable', p, `PUT: no progress within ${this.timeoutMs} ms`)),
    );
    const answer = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', (e) => reject(networkError(e, p)));
      });
      req.on('error', (e) => reject(networkError(e, p)));
    });
    // Not every caller awaits it (an abandoned write): never an unhandled rejection.
    answer.catch(() => undefined);
    return { req, answer };
  }

  async mkdir(raw: string): Promise<void> {
    const p = checkPath(raw);
    this.refuseWrites(p);
    if (p === '/') throw new StorageError('exists', p);
    await this.learnSpelling(p);
    const a = await this.request('MKCOL', this.urlOf(p, true), p);
    if (a.status === 201 || a.status === 200) return;
    throw httpError(a.status, p, 'MKCOL');
  }

  private async transfer(method: 'MOVE' | 'COPY', from: string, to: string, overwrite: boolean, depth: string) {
    const src = checkPath(from);
    const dst = checkPath(to);
    this.refuseWrites(src);
    if (src === '/' && method === 'MOVE') throw new StorageError('denied', src, 'root');
    if (dst === '/') throw new StorageError('exists', dst);
    if (src === dst) throw new StorageError('conflict', dst, 'ontoItself');
    if (isWithin(src, dst)) throw new StorageError('conflict', dst, 'intoItself');
    await this.learnSpelling(src);
    await this.learnSpelling(dst);
    const a = await this.request(method, this.urlOf(src), src, {
      headers: { destination: this.urlOf(dst).href, overwrite: overwrite ? 'T' : 'F', depth },
    });
    if (a.status === 201 || a.status === 204) return;
    if (a.status === 207) throw new StorageError('failed', dst, `${method}: some members failed`);
    // 412 with Overwrite: F is "the target exists"; 409 a missing parent of the target.
    throw httpError(a.status, a.status === 404 ? src : dst, method);
  }

  async move(from: string, to: string, o: { overwrite: boolean }): Promise<void> {
    await this.transfer('MOVE', from, to, o.overwrite, 'infinity');
  }

  async copy(from: string, to: string, o: { overwrite: boolean; recursive: boolean }): Promise<void> {
    await this.transfer('COPY', from, to, o.overwrite, o.recursive ? 'infinity' : '0');
  }

  async delete(raw: string): Promise<void> {
    const p = checkPath(raw);
    this.refuseWrites(p);
    if (p === '/') throw new StorageError('denied', p, 'root');
    await this.learnSpelling(p);
    const a = await this.request('DELETE', this.urlOf(p), p);
    if (a.status === 200 || a.status === 204) return;
    if (a.status === 207) throw new StorageError('failed', p, 'DELETE: some members failed');
    throw httpError(a.status, p, 'DELETE');
  }

  /**
   * Best effort, one property per PROPPATCH (a PROPPATCH is all or nothing, and each server
   * takes a different one): Win32LastModifiedTime (Windows' own, IIS, our WebDAV), then DAV:
   * lastmodified in Unix seconds (Nextcloud / ownCloud), then DAV:getlastmodified, which most
   * servers (Apache included) keep to themselves. None taken is not an error for the caller: the
   * file is there, with the server's time. A missing file or a refused login still is.
   */
  async setMtime(raw: string, mtimeMs: number): Promise<void> {
    const p = checkPath(raw);
    this.refuseWrites(p);
    if (!Number.isFinite(mtimeMs)) throw new StorageError('failed', p, 'badTime');
    await this.learnSpelling(p);
    const http = new Date(mtimeMs).toUTCString();
    const attempts: [ns: string, local: string, key: string, value: string][] = [
      [
        'urn:schemas-microsoft-com:',
        'Win32LastModifiedTime',
        '{urn:schemas-microsoft-com:}Win32LastModifiedTime',
        http,
      ],
      [DAV, 'lastmodified', 'lastmodified', String(Math.floor(mtimeMs / 1000))],
      [DAV, 'getlastmodified', 'getlastmodified', http],
    ];
    for (const [ns, local, key, value] of attempts) {
      const body = `<?xml version="1.0" encoding="utf-8"?>
<D:propertyupdate xmlns:D="DAV:" xmlns:Z="${ns}"><D:set><D:prop><Z:${local}>${value}</Z:${local}></D:prop></D:set></D:propertyupdate>`;
      const a = await this.request('PROPPATCH', this.urlOf(p), p, { body });
      if (a.status === 404 || a.status === 401) throw httpError(a.status, p, 'PROPPATCH');
      if (a.status === 200 || a.status === 204) return;
      if (a.status !== 207) continue;
      let taken = false;
      try {
        taken = parseMultistatus(a.body.toString('utf8'), p).some((r) => r.props.has(key));
      } catch {
        taken = false;
      }
      if (taken) return;
    }
  }

  // ---- the storage as a whole ----

  /** RFC 4331 quota properties of the root; a server without them leaves the figures out. */
  async space(): Promise<StorageSpace> {
    const rs = await this.propfind('/', '0', PROPFIND_QUOTA, true);
    const r = rs[0];
    const num = (k: string) => {
      const v = r?.props.get(k);
      if (v === undefined || v === '' || !/^\d+$/.test(v)) return undefined;
      return Number(v);
    };
    const free = num('quota-available-bytes');
    const used = num('quota-used-bytes');
    return { free, used, total: free !== undefined && used !== undefined ? free + used : undefined };
  }

  async probe(): Promise<void> {
    let e: StorageEntry;
    try {
      e = await this.stat('/');
    } catch (err) {
      if (err instanceof StorageError && err.code === 'notFound')
        throw new StorageError('unreachable', '/', 'HTTP 404: no such folder on the server');
      throw err;
    }
    if (e.kind !== 'dir') throw new StorageError('unreachable', '/', 'not a folder (collection) on the server');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.agent.destroy();
  }
}

/** Bytes `start`…`end` (inclusive) of a stream that starts at byte 0. */
function sliceStream(start: number, end: number | undefined): Transform {
  let at = 0;
  const last = end ?? Number.POSITIVE_INFINITY;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const from = Math.max(0, start - at);
      const to = Math.min(chunk.length, last - at + 1);
      at += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (at > last) {
        this.push(null);
      }
      cb();
    },
  });
}

/**
 * A PUT as a Writable: chunks go to the request with its backpressure; 'finish' waits for the
 * server's 2xx (the data is in place), an error answer or a destroy fails it (the server then
 * keeps or drops what it got; WebDAV has no "abandon", so a half upload may remain there as the
 * server decides — Apache writes to a temp file and keeps the old one).
 */
class PutStream extends Writable {
  private req?: http.ClientRequest;
  private answer?: Promise<number>;

  constructor(
    private readonly storage: WebdavStorage,
    private readonly p: string,
    private readonly headers: Record<string, string>,
    private readonly signal?: AbortSignal,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  private open() {
    if (!this.req) {
      const { req, answer } = this.storage.openPut(this.p, this.headers, this.signal);
      this.req = req;
      this.answer = answer;
      // An early error answer (401, 409, 412 …) while we still send: the request errors or the
      // answer resolves; either way the next write learns it through the answer.
    }
    return this.req;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    const req = this.open();
    if (req.destroyed) {
      cb(new StorageError('unreachable', this.p, 'PUT: connection closed'));
      return;
    }
    if (req.write(chunk)) cb();
    else {
      const onDrain = () => {
        req.off('error', onError);
        cb();
      };
      const onError = (e: Error) => {
        req.off('drain', onDrain);
        cb(networkError(e, this.p));
      };
      req.once('drain', onDrain);
      req.once('error', onError);
    }
  }

  override _final(cb: (e?: Error | null) => void): void {
    const req = this.open();
    req.end();
    (this.answer as Promise<number>).then(
      (status) => {
        if (status >= 200 && status < 300) cb();
        else cb(httpError(status, this.p, 'PUT'));
      },
      (e) => cb(networkError(e, this.p)),
    );
  }

  override _destroy(err: Error | null, cb: (e?: Error | null) => void): void {
    if (this.req && !this.req.writableFinished) this.req.destroy(err ?? undefined);
    cb(err);
  }
}

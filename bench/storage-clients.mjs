// The clients of the storage bench (bench/storage.mjs): curl for the big transfers (it does no
// per-chunk work of ours, and every server gets the same client), a node loop for PROPFIND, and
// sockets held open for the memory figures.
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';

const auth = (user, pass) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

/**
 * One curl transfer: `get` (into /dev/null) or `put` (the file `source`, with its length), HTTP or
 * FTP. Resolves with MiB/s; rejects on a wrong status or a short transfer.
 */
export function curlTransfer({ url, user, pass, upload, bytes }) {
  const args = [
    '-sS',
    '--user',
    `${user}:${pass}`,
    '-w',
    '%{response_code} %{size_download} %{size_upload} %{time_total}',
  ];
  if (upload) args.push('-T', upload, '-o', '/dev/null');
  else args.push('-o', '/dev/null');
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile('curl', args, { timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`curl ${url}: ${(stderr || err.message).trim()}`));
      const [code, down, up, secs] = stdout.trim().split(' ').map(Number);
      const moved = upload ? up : down;
      const okCode = url.startsWith('ftp:') ? code === 226 : code >= 200 && code < 300;
      if (!okCode || moved !== bytes)
        return reject(
          new Error(`curl ${upload ? 'upload' : 'download'} ${url}: status ${code}, ${moved} of ${bytes} bytes`),
        );
      resolve(bytes / 1048576 / secs);
    });
  });
}

/** What a file manager asks of a folder (rclone, Finder and Explorer ask for about these). */
export const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:"><D:prop>' +
  '<D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/><D:getcontenttype/>' +
  '</D:prop></D:propfind>';

/** `<D:response>` elements in a multistatus answer, whatever the prefix. */
export const countResponses = (xml) => (xml.match(/<([A-Za-z][\w.-]*:)?response[\s>]/g) ?? []).length;

/** One PROPFIND over a keep-alive agent: the status and the whole body. */
function propfind(agent, base, path, headers) {
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      u,
      { method: 'PROPFIND', agent, headers: { ...headers, 'content-length': Buffer.byteLength(PROPFIND_BODY) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`PROPFIND ${u} timed out`)));
    req.on('error', reject);
    req.end(PROPFIND_BODY);
  });
}

/**
 * PROPFIND Depth 1 on `path`, one request after the other on one keep-alive connection (a file
 * manager opening a folder), for `seconds` and at least `minRequests`. The first answer must list
 * `entries` + 1 resources. Resolves with the median ms per request and the requests per second.
 */
export async function propfindLoop({ base, path, user, pass, entries, seconds, minRequests = 3 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: auth(user, pass), depth: '1', 'content-type': 'application/xml' };
  try {
    const first = await propfind(agent, base, path, headers);
    const n = countResponses(first.body);
    if (first.status !== 207 || n !== entries + 1)
      throw new Error(`PROPFIND ${base}${path}: status ${first.status}, ${n} responses, expected ${entries + 1}`);
    const times = [];
    const t0 = performance.now();
    while (times.length < minRequests || performance.now() - t0 < seconds * 1000) {
      const t = performance.now();
      const r = await propfind(agent, base, path, headers);
      if (r.status !== 207) throw new Error(`PROPFIND ${base}${path}: status ${r.status}`);
      times.push(performance.now() - t);
    }
    const elapsed = (performance.now() - t0) / 1000;
    times.sort((a, b) => a - b);
    return { ms: times[Math.floor(times.length / 2)], rps: times.length / elapsed };
  } finally {
    agent.destroy();
  }
}

/**
 * `count` keep-alive connections to a WebDAV server, each after one authenticated PROPFIND
 * Depth 0 (so each has been through the server's request path once), held open until close().
 */
export async function openDavConnections({ base, path, user, pass, count }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count, keepAliveMsecs: 60_000 });
  const headers = { authorization: auth(user, pass), depth: '0', 'content-type': 'application/xml' };
  const answers = await Promise.all(Array.from({ length: count }, () => propfind(agent, base, path, headers)));
  const bad = answers.find((a) => a.status !== 207);
  if (bad) {
    agent.destroy();
    throw new Error(`PROPFIND ${base}${path} answered ${bad.status}`);
  }
  const open = Object.values(agent.freeSockets).reduce((n, list) => n + list.length, 0);
  return { open, close: () => agent.destroy() };
}

/** Reads an FTP control connection's replies (multi-line ones whole): next() → {code, text}. */
function ftpReplies(socket) {
  let buf = '';
  const queue = [];
  const waiting = [];
  let failure;
  const push = (reply) => (waiting.length ? waiting.shift().resolve(reply) : queue.push(reply));
  socket.setEncoding('utf8');
  socket.on('data', (d) => {
    buf += d;
    for (;;) {
      // A reply ends with a line "ddd " (a multi-line one opens with "ddd-").
      const m = /^(\d{3}) .*\r?\n/m.exec(buf);
      if (!m) break;
      const end = m.index + m[0].length;
      push({ code: Number(m[1]), text: buf.slice(0, end) });
      buf = buf.slice(end);
    }
  });
  const fail = (err) => {
    failure = err;
    for (const w of waiting.splice(0)) w.reject(err);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('control connection closed')));
  return () =>
    queue.length
      ? Promise.resolve(queue.shift())
      : failure
        ? Promise.reject(failure)
        : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
}

/** One FTP session logged in (220, USER → 331, PASS → 230), held open. */
async function ftpLogin(host, port, user, pass) {
  const socket = net.connect(port, host);
  socket.setTimeout(20_000, () => socket.destroy(new Error('FTP login timed out')));
  const next = ftpReplies(socket);
  const expect = async (code, what) => {
    const r = await next();
    if (r.code !== code) throw new Error(`${what}: ${r.text.trim()}`);
  };
  try {
    await expect(220, 'greeting');
    socket.write(`USER ${user}\r\n`);
    await expect(331, 'USER');
    socket.write(`PASS ${pass}\r\n`);
    await expect(230, 'PASS');
    socket.setTimeout(0);
    return socket;
  } catch (err) {
    socket.destroy();
    throw err;
  }
}

/** `count` logged-in FTP sessions, opened a few at a time (as clients connect), held until close(). */
export async function openFtpSessions({ host, port, user, pass, count }) {
  const sockets = [];
  try {
    for (let i = 0; i < count; i += 10) {
      const batch = Math.min(10, count - i);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => ftpLogin(host, port, user, pass)))));
    }
  } catch (err) {
    for (const s of sockets) s.destroy();
    throw err;
  }
  return {
    open: sockets.length,
    close: () => {
      for (const s of sockets) s.end('QUIT\r\n');
    },
  };
}

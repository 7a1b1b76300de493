// A request recorder on loopback (webhook and callback receivers in tests): every request is
// kept, answers come from a list in turn.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free port of `host`; answers the port. */
export async function listen(server: http.Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Records every request; answers from `replies` in turn (the last one repeats). */
export async function recorder(replies: { status: number; body: string }[] = [{ status: 200, body: 'ok' }]) {
  const seen: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const r = replies[Math.min(seen.length - 1, replies.length - 1)];
      res.writeHead(r.status, { 'content-type': 'text/plain' });
      res.end(r.body);
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// A scripted ACME server on loopback for what pebble cannot show on demand: renewal information
// (pebble 2.4.0 has no ARI), a badNonce on every try, rate limits, Retry-After, silence. It hands
// out numbered nonces and records every request with its decoded JWS.
import http from 'node:http';
import type net from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  /** The JWS's protected header and payload, decoded (POSTs). */
  header?: Record<string, unknown>;
  payload?: unknown;
}

export interface StubAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (a CA that hangs). */
  hang?: boolean;
}

export type StubRoute = (req: StubRequest, seen: StubRequest[]) => StubAnswer | undefined;

/** Starts the stub; `route` answers everything but the directory and newNonce (404 when it returns undefined). */
export async function acmeStub(route: StubRoute, o: { renewalInfo?: boolean } = {}) {
  const seen: StubRequest[] = [];
  const sockets = new Set<net.Socket>();
  let nonce = 0;
  let base = '';
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      raw += d;
    });
    req.on('end', () => {
      const r: StubRequest = { method: req.method ?? '', path: req.url ?? '' };
      if (raw) {
        const jws = JSON.parse(raw) as { protected: string; payload: string };
        r.header = JSON.parse(Buffer.from(jws.protected, 'base64url').toString());
        r.payload = jws.payload ? JSON.parse(Buffer.from(jws.payload, 'base64url').toString()) : undefined;
      }
      seen.push(r);
      const headers: Record<string, string> = { 'replay-nonce': `nonce-${++nonce}` };
      let answer: StubAnswer | undefined;
      if (r.path === '/dir') {
        answer = {
          body: {
            newNonce: `${base}/new-nonce`,
            newAccount: `${base}/new-account`,
            newOrder: `${base}/new-order`,
            revokeCert: `${base}/revoke`,
            ...(o.renewalInfo ? { renewalInfo: `${base}/renewal-info/` } : {}),
          },
        };
      } else if (r.path === '/new-nonce') answer = { status: 200 };
      else answer = route(r, seen);
      if (answer?.hang) return;
      const a = answer ?? { status: 404, body: { type: 'about:blank', detail: 'no such path' } };
      const status = a.status ?? 200;
      const json = status >= 400 ? 'application/problem+json' : 'application/json';
      res.writeHead(status, { 'content-type': json, ...headers, ...a.headers });
      res.end(a.body === undefined ? '' : JSON.stringify(a.body));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    directoryUrl: `${base}/dir`,
    base,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A problem answer. */
export const problem = (status: number, type: string, detail: string, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: { type: `urn:ietf:params:acme:error:${type}`, detail, status },
});

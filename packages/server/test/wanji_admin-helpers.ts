// Peers for the wanji_admin tests: a test CA and its leaf (openssl), a TLS server that records
// every byte it receives, a fake console answering canned /api/summary variants, and small calls.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { makeSelfSigned } from '../src/core/tls/selfSigned.js';
import { type TestServer, tempDir } from './harness.js';

const run = promisify(execFile);

export interface Pems {
  cert: string;
  key: string;
}

/** A CA and a leaf for localhost / 127.0.0.1 signed by it (openssl, EC P-256). */
export async function makeCa(): Promise<{ ca: Pems; leaf: Pems }> {
  const dir = await tempDir('wanji-ca-');
  try {
    const f = (n: string) => path.join(dir, n);
    await run('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('ca.key')]);
    await run('openssl', [
      'req',
      '-x509',
      '-new',
      '-key',
      f('ca.key'),
      '-days',
      '2',
      '-subj',
      '/CN=Wanji test CA',
      '-out',
      f('ca.crt'),
    ]);
    await run('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('leaf.key')]);
    await run('openssl', ['req', '-new', '-key', f('leaf.key'), '-subj', '/CN=localhost', '-out', f('leaf.csr')]);
    await fs.writeFile(f('ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      f('leaf.csr'),
      '-CA',
      f('ca.crt'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      f('ext'),
      '-out',
      f('leaf.crt'),
    ]);
    const read = (n: string) => fs.readFile(f(n), 'utf8');
    return {
      ca: { cert: await read('ca.crt'), key: await read('ca.key') },
      leaf: { cert: await read('leaf.crt'), key: await read('leaf.key') },
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256;

/** A TLS server (its own self-signed certificate) that records every decrypted byte it receives. */
export async function recordingTls(): Promise<{
  port: number;
  fingerprint: string;
  bytes: () => string;
  connections: () => number;
  close: () => Promise<void>;
}> {
  const pems = makeSelfSigned({ commonName: 'impostor', dnsNames: ['localhost'], ips: ['127.0.0.1'], days: 2 });
  let received = '';
  let handshakes = 0;
  const server = tls.createServer({ cert: pems.cert, key: pems.key }, (s) => {
    s.on('data', (d: Buffer) => {
      received += d.toString('latin1');
    });
    s.on('error', () => {});
  });
  // Counted at the TCP accept: a client that drops the connection right after its side of the
  // handshake may leave before the server's 'secureConnection'.
  server.on('connection', () => {
    handshakes++;
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    fingerprint: fingerprintOf(pems.cert),
    bytes: () => received,
    connections: () => handshakes,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A summary as a console answers it. */
export const fakeSummary = (version = '9.9.9') => ({
  ret: 0,
  version,
  startedAt: new Date().toISOString(),
  uptimeSeconds: 5,
  hostname: 'fake',
  cpu: { percent: 1, cores: 2 },
  memory: { rss: 1, systemTotal: 2, systemFree: 1 },
  modules: [{ key: 'wol', state: 'running', errors: 0 }],
  certs: [],
});

/**
 * An HTTPS "console" with canned answers by entrance path: /ok a summary, /garbage not JSON,
 * /shape JSON of another shape, /huge 2 MiB, /slow never answers, /denied 401, /missing 404.
 */
export async function fakeConsole(pems: Pems): Promise<{ port: number; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = https.createServer({ cert: pems.cert, key: pems.key }, (req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    switch (req.url) {
      case '/ok/api/summary':
        return json(200, fakeSummary());
      case '/garbage/api/summary':
        return res.writeHead(200).end('<html>hello</html>');
      case '/shape/api/summary':
        return json(200, { ret: 0, hello: 'world' });
      case '/huge/api/summary':
        res.writeHead(200, { 'content-type': 'application/json' });
        // No content-length: the limit must hold while reading, not from the header.
        for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 0x20));
        return res.end('{}');
      case '/slow/api/summary':
        hanging.push(res);
        return;
      case '/denied/api/summary':
        return json(401, { ret: -1, code: 'loginExpired' });
      default:
        return json(404, { ret: 1, code: 'notFound' });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: async () => {
      for (const h of hanging) h.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** An API token of the server (created with the admin password). */
export async function apiToken(s: TestServer, name = 'manager'): Promise<string> {
  const session = await s.login();
  const r = await s.call('POST', '/api/apitokens', { token: session, body: { name, currentPassword: '666' } });
  if (r.body.ret !== 0) throw new Error(`token: ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

/** The server's admin certificate fingerprint (its HTTPS on the admin port). */
export async function adminFingerprint(configDir: string): Promise<string> {
  return fingerprintOf(await fs.readFile(path.join(configDir, 'tls/admin.crt'), 'utf8'));
}

/** POST from a chosen loopback source address (127.0.0.x): the console sees another client. */
export function postFrom(
  localAddress: string,
  url: string,
  body: unknown,
): Promise<{ status: number; body: { ret: number; code?: string; token?: string } }> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': data.length } },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

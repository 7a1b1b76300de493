import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { makeSelfSigned } from './selfSigned.js';

const made = makeSelfSigned({
  commonName: 'Lucky console',
  dnsNames: ['localhost', 'nas.lan'],
  ips: ['127.0.0.1', '::1', 'fe80::1:2'],
  days: 3650,
});

describe('makeSelfSigned', () => {
  it('makes a certificate node reads back: names, validity, its own signature, the key pair', () => {
    const x = new X509Certificate(made.cert);
    expect(x.subject).toBe('CN=Lucky console');
    expect(x.issuer).toBe('CN=Lucky console');
    expect(x.subjectAltName).toBe(
      'DNS:localhost, DNS:nas.lan, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FE80:0:0:0:0:0:1:2',
    );
    expect(x.ca).toBe(false);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.checkPrivateKey(createPrivateKey(made.key))).toBe(true);
    const days = (Date.parse(x.validTo) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(3649);
    expect(days).toBeLessThan(3651);
    expect(Date.parse(x.validFrom)).toBeLessThan(Date.now());
  });

  it('passes openssl: parses, verifies against itself, server auth only', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-ss-'));
    try {
      const f = path.join(dir, 'c.pem');
      writeFileSync(f, made.cert);
      const text = execFileSync('openssl', ['x509', '-in', f, '-noout', '-text'], { encoding: 'utf8' });
      expect(text).toContain('ecdsa-with-SHA256');
      expect(text).toContain('TLS Web Server Authentication');
      expect(text).toContain('CA:FALSE');
      expect(text).toMatch(/Digital Signature, Key Encipherment/);
      const v = execFileSync('openssl', ['verify', '-CAfile', f, '-purpose', 'sslserver', f], { encoding: 'utf8' });
      expect(v.trim()).toBe(`${f}: OK`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a TLS handshake that a client pinning it accepts', async () => {
    const server = tls.createServer({ cert: made.cert, key: made.key }, (c) => c.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const c = tls.connect({ port, host: '127.0.0.1', servername: 'nas.lan', ca: made.cert }, () => undefined);
        let got = '';
        c.on('data', (d) => {
          got += d;
        });
        c.on('end', () => resolve(got));
        c.on('error', reject);
      });
      expect(text).toBe('ok');
    } finally {
      server.close();
    }
  });
});

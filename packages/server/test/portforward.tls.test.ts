import { promises as fs } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoOnce, echoServer, freePort, type Peer, type Pf, startPf, tcpServer } from './portforward-helpers.js';
import { waitFor } from './wait.js';

/** A self-signed pair for `localhost` / 127.0.0.1. */
async function pair(cn: string) {
  const p = await generate([{ name: 'commonName', value: cn }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: p.cert, key: p.private };
}

/** Connect with TLS, send, read the echo. */
function tlsEcho(
  port: number,
  text: string,
  opts: tls.ConnectionOptions = {},
): Promise<{ text: string; cert: tls.PeerCertificate }> {
  return new Promise((resolve, reject) => {
    const c = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }, () => c.write(text));
    let got = '';
    c.on('data', (d) => {
      got += d;
      if (got.length >= text.length) {
        resolve({ text: got, cert: c.getPeerCertificate() });
        c.destroy();
      }
    });
    c.on('error', reject);
    c.on('close', () => reject(new Error(`closed after "${got}"`)));
  });
}

let pf: Pf;
let echo: Peer;
beforeAll(async () => {
  pf = await startPf();
  echo = await echoServer();
});
afterAll(async () => {
  await echo?.close();
  await pf?.close();
});

describe('TLS', () => {
  it('terminate: accepts TLS with the pasted pair and forwards plain text', async () => {
    const { cert, key } = await pair('pasted pair');
    const port = await freePort();
    const { rule } = await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
      tlsMode: 'terminate',
      tlsCert: cert,
      tlsKey: key,
    });
    // The key is never sent back.
    expect(rule).toMatchObject({ tlsKey: '', tlsKeySet: true, tlsCert: cert });
    const r = await tlsEcho(port, 'secret hello');
    expect(r.text).toBe('secret hello');
    expect(r.cert.subject.CN).toBe('pasted pair');

    // An edit that sends the certificate with an empty key (as the form does) keeps the stored key.
    const { key: ruleKey, tlsKeySet: _set, proxies: _p, logs: _l, ...editable } = rule;
    const edited = await pf.call('PUT', `/api/portforward/rules/${ruleKey}`, {
      ...editable,
      name: 'renamed',
      tlsKey: '',
    });
    expect(edited.body, JSON.stringify(edited.body)).toMatchObject({
      ret: 0,
      rule: { name: 'renamed', tlsKeySet: true },
    });
    expect((await tlsEcho(port, 'still secret')).text).toBe('still secret');
  });

  it('terminate: a target that resets closes the TLS client instead of failing the process', async () => {
    const rst = await tcpServer((c) => c.once('data', () => c.resetAndDestroy()));
    const port = await freePort();
    await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(rst.port),
      tlsMode: 'terminate',
    });
    const closed = await new Promise<string>((resolve) => {
      const c = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => c.write('boom'));
      c.on('error', (e) => resolve(`error ${e.message}`));
      c.on('close', () => resolve('closed'));
    });
    expect(closed).toBeTruthy();
    // The port still serves: a new client gets through the handshake, and the API answers.
    const handshake = await new Promise<string>((resolve, reject) => {
      const c = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
        resolve(c.getProtocol() ?? '');
        c.destroy();
      });
      c.on('error', reject);
    });
    expect(handshake).toMatch(/TLS/);
    expect((await pf.call('GET', '/api/portforward/settings')).body.ret).toBe(0);
    await rst.close();
  });

  it('terminate: without a pasted pair it uses the admin’s self-signed certificate', async () => {
    const adminCert = await fs.readFile(path.join(pf.s.configDir, 'tls', 'admin.crt'), 'utf8');
    const port = await freePort();
    await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
      tlsMode: 'terminate',
    });
    // Verifies against the admin certificate as the only CA: it is that certificate.
    const r = await tlsEcho(port, 'hello admin cert', {
      rejectUnauthorized: true,
      ca: adminCert,
      servername: 'localhost',
    });
    expect(r.text).toBe('hello admin cert');
    // A plain-text client does not get through.
    await expect(echoOnce(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')).rejects.toThrow();
  });

  it('originate: plain in, TLS to the target; verification on by default, CA and skip-verify options', async () => {
    const { cert, key } = await pair('tls target');
    const target = tls.createServer({ cert, key }, (s) => s.pipe(s));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const tport = (target.address() as { port: number }).port;
    const base = {
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(tport),
      tlsMode: 'originate',
    };
    const [skip, ca, strict] = [await freePort(), await freePort(), await freePort()];
    await pf.addRule({ ...base, listenPorts: String(skip), tlsSkipVerify: true });
    await pf.addRule({ ...base, listenPorts: String(ca), tlsCa: cert, tlsServerName: 'localhost' });
    const { key: strictKey } = await pf.addRule({ ...base, listenPorts: String(strict) });
    expect(await echoOnce(skip, 'via skip-verify')).toBe('via skip-verify');
    expect(await echoOnce(ca, 'via trusted CA')).toBe('via trusted CA');
    // A self-signed target without its CA is refused, and the log says why.
    await expect(echoOnce(strict, 'x')).rejects.toThrow();
    const logs = await waitFor(
      async () => (await pf.call('GET', `/api/portforward/rules/${strictKey}/logs`)).body.logs,
      (l: { text: string }[]) => l.some((x) => /failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED)/.test(x.text)),
    );
    expect(logs.length).toBeGreaterThan(0);
    await new Promise((r) => target.close(r));
  });
});

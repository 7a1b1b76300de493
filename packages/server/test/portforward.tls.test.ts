import tls from 'node:tls';
import { SECRET_MASK } from '@lucky/shared';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  echoOnce,
  echoServer,
  freePort,
  type Peer,
  type Pf,
  ruleFields,
  startPf,
  tcpServer,
} from './portforward-helpers.js';
import { waitFor } from './wait.js';

/** A self-signed pair for `localhost` / 127.0.0.1 (valid for `days` from now). */
async function pair(cn: string, days = 365) {
  const p = await generate([{ name: 'commonName', value: cn }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + days * 86_400_000),
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
    // The key is never sent back: it reads as the mask, in every answer.
    expect(rule).toMatchObject({ tlsKey: SECRET_MASK, tlsCert: cert });
    const keyBody = key.split('\n')[1];
    for (const url of ['/api/portforward/rules', `/api/portforward/rules/${rule.key}`])
      expect(JSON.stringify((await pf.call('GET', url)).body)).not.toContain(keyBody);
    const r = await tlsEcho(port, 'secret hello');
    expect(r.text).toBe('secret hello');
    expect(r.cert.subject.CN).toBe('pasted pair');

    const stored = () =>
      (pf.s.server.core.store.get().modules.portforward as { rules: { key: string; tlsKey: string }[] }).rules.find(
        (x) => x.key === rule.key,
      )?.tlsKey;
    // An edit that sends the mask back (as the form does) keeps the stored key.
    const edited = await pf.call('PUT', `/api/portforward/rules/${rule.key}`, { ...ruleFields(rule), name: 'renamed' });
    expect(edited.body, JSON.stringify(edited.body)).toMatchObject({
      ret: 0,
      rule: { name: 'renamed', tlsKey: SECRET_MASK },
    });
    expect(stored()).toBe(key);
    expect((await tlsEcho(port, 'still secret')).text).toBe('still secret');
    // An empty key clears it: refused (a certificate needs its key), nothing saved.
    const cleared = await pf.call('PUT', `/api/portforward/rules/${rule.key}`, { ...ruleFields(rule), tlsKey: '' });
    expect(cleared.body).toMatchObject({ ret: 1, field: 'tlsKey', code: 'tlsKeyRequired' });
    expect(stored()).toBe(key);
    // A new pair replaces it.
    const next = await pair('replaced pair');
    const replaced = await pf.call('PUT', `/api/portforward/rules/${rule.key}`, {
      ...ruleFields(rule),
      tlsCert: next.cert,
      tlsKey: next.key,
    });
    expect(replaced.body.ret, JSON.stringify(replaced.body)).toBe(0);
    expect(stored()).toBe(next.key);
    expect((await tlsEcho(port, 'new pair')).cert.subject.CN).toBe('replaced pair');
  });

  it('terminate: a target that resets closes the TLS client instead of failing the process', async () => {
    const rst = await tcpServer((c) => c.once('data', () => c.resetAndDestroy()));
    const port = await freePort();
    const { cert, key } = await pair('reset target');
    await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(rst.port),
      tlsMode: 'terminate',
      tlsCert: cert,
      tlsKey: key,
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

  it('terminate without a pasted pair: the certificate store, asked per handshake', async () => {
    const port = await freePort();
    const { key, rule } = await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
      tlsMode: 'terminate',
    });
    // The store is empty: the rule says so, and a client is closed before any handshake.
    expect(rule).toMatchObject({ state: 'error', reason: { code: 'noCertificate' } });
    await expect(tlsEcho(port, 'no cert')).rejects.toThrow();
    const logs = await waitFor(
      async () => (await pf.call('GET', `/api/portforward/rules/${key}/logs`)).body.logs,
      (l: { code?: string; text: string }[]) => l.some((x) => x.code === 'noCertificate'),
    );
    expect(logs.find((x) => x.code === 'noCertificate')?.text).toMatch(/no certificate for TLS/);

    // A certificate added to the store serves at the next handshake; the rule is not saved again.
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const first = await pair('store first', 30);
    const added = await pf.call('POST', '/api/ssl', { CertBase64: b64(first.cert), KeyBase64: b64(first.key) });
    expect(added.body.ret, JSON.stringify(added.body)).toBe(0);
    const a = await tlsEcho(port, 'hello store', { rejectUnauthorized: true, ca: first.cert, servername: 'localhost' });
    expect(a.text).toBe('hello store');
    expect(a.cert.subject.CN).toBe('store first');
    expect(await pf.rule(key)).toMatchObject({ state: 'running' });
    // A client without a server name (an IP address) gets the store's default certificate.
    expect((await tlsEcho(port, 'by address')).cert.subject.CN).toBe('store first');
    // A renewal (expires later) wins at the next handshake.
    const renewed = await pair('store renewed', 300);
    await pf.call('POST', '/api/ssl', { CertBase64: b64(renewed.cert), KeyBase64: b64(renewed.key) });
    const b = await tlsEcho(port, 'hello renewed', { servername: 'localhost' });
    expect(b.cert.subject.CN).toBe('store renewed');
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
    // The line is coded: the UI shows it in its own language, with the target and the reason.
    expect(logs.find((x: { text: string }) => /failed: /.test(x.text))).toMatchObject({
      code: 'targetFailed',
      params: { target: `127.0.0.1:${tport}`, detail: expect.stringMatching(/SELF_SIGNED/) },
    });
    await new Promise((r) => target.close(r));
  });
});

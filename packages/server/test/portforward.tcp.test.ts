import { createHash } from 'node:crypto';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  echoOnce,
  echoServer,
  freePort,
  freeRange,
  type Peer,
  type Pf,
  receiveAll,
  roundTrip,
  sendRandom,
  startPf,
  tcpServer,
} from './portforward-helpers.js';
import { waitFor } from './wait.js';

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

describe('TCP forwarding', () => {
  it('relays 64 MiB each way at once, byte for byte, and counts the bytes', async () => {
    const size = 64 * 1024 * 1024;
    const got: { fromClient?: Promise<{ bytes: number; sha256: string }>; sent?: Promise<string> } = {};
    const target = await tcpServer((c) => {
      got.fromClient = receiveAll(c);
      got.sent = sendRandom(c, size);
    });
    const port = await freePort();
    const { key } = await pf.addRule({
      name: 'bulk',
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(target.port),
    });
    const c = await connect(port);
    const [sentByClient, receivedByClient] = await Promise.all([sendRandom(c, size), receiveAll(c)]);
    await waitFor(
      () => got.fromClient,
      (v) => v !== undefined,
    );
    const receivedByTarget = await got.fromClient;
    expect(receivedByTarget).toEqual({ bytes: size, sha256: sentByClient });
    expect(receivedByClient).toEqual({ bytes: size, sha256: await got.sent });
    const rule = await waitFor(
      () => pf.rule(key),
      (r) => r.connections === 0,
    );
    expect(rule.bytesIn).toBe(size);
    expect(rule.bytesOut).toBe(size);
    expect(rule.proxies[0]).toMatchObject({ state: 'running', accepted: 1, bytesIn: size, bytesOut: size });
    expect(rule.lastLogs.map((l: { text: string }) => l.text).join('\n')).toMatch(/closed after .* in 64\.0 MiB/);
    await target.close();
  }, 30_000);

  it('passes a half-close on both ways: the FIN goes through, the other direction keeps working', async () => {
    // The target reads until the client's FIN, then answers with a digest and its own FIN.
    const target = await tcpServer((c) => {
      const h = createHash('sha256');
      c.on('data', (d) => h.update(d));
      c.on('end', () => {
        // Answer a little after the FIN, not in the same tick: the half-open connection must stay up.
        setTimeout(() => c.end(`digest:${h.digest('hex')}`), 50);
      });
    });
    const port = await freePort();
    await pf.addRule({
      forwardTypes: ['tcp'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(target.port),
    });
    const c = await connect(port);
    const reply = receiveAll(c);
    const sent = await sendRandom(c, 3 * 1024 * 1024, true);
    const r = await reply;
    expect(r.bytes).toBe(`digest:${sent}`.length);

    // And the other way: the target closes its side first, the client keeps sending.
    const target2 = await tcpServer((c2) => {
      c2.end('hello, I am done talking');
      const h = createHash('sha256');
      c2.on('data', (d) => h.update(d));
      c2.on('end', () => {
        c2.destroy();
        done2(h.digest('hex'));
      });
    });
    let done2: (s: string) => void = () => {};
    const targetGot = new Promise<string>((r2) => {
      done2 = r2;
    });
    const port2 = await freePort();
    await pf.addRule({
      forwardTypes: ['tcp4'],
      listenPorts: String(port2),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(target2.port),
    });
    const c2 = await connect(port2);
    const fromTarget = await receiveAll(c2);
    expect(fromTarget.bytes).toBe('hello, I am done talking'.length);
    const sent2 = await sendRandom(c2, 1024 * 1024, true);
    expect(await targetGot).toBe(sent2);
    await target.close();
    await target2.close();
  });

  it('carries 200 concurrent connections', async () => {
    const port = await freePort();
    const { key } = await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
      // All 200 come from 127.0.0.1: past the default per-address cap of 64 (floods.test.ts).
      perIpMaxConnections: 0,
    });
    const socks: net.Socket[] = await Promise.all(Array.from({ length: 200 }, () => connect(port)));
    const replies = await Promise.all(socks.map((c, i) => roundTrip(c, `message ${i} `.repeat(50))));
    replies.forEach((r, i) => {
      expect(r).toBe(`message ${i} `.repeat(50));
    });
    const live = await pf.rule(key);
    expect(live.connections).toBe(200);
    const list = (await pf.call('GET', '/api/portforward/rules')).body;
    expect(list.summary.tcpConnections).toBeGreaterThanOrEqual(200);
    for (const c of socks) c.end();
    await waitFor(
      () => pf.rule(key),
      (r) => r.connections === 0,
    );
  });

  it('forwards a port range pairwise, and many ports to one target port', async () => {
    // Each target answers with its own number, so the pairing is visible.
    const tBase = await freeRange(3);
    const peers = await Promise.all(
      [0, 1, 2].map((i) => tcpServer((c) => c.end(`target ${i}`), '127.0.0.1', tBase + i)),
    );
    const base = await freeRange(3);
    const { key } = await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: `${base}-${base + 2}`,
      targetAddresses: ['127.0.0.1'],
      targetPorts: `${tBase}-${tBase + 2}`,
    });
    for (let i = 0; i < 3; i++) {
      const c = await connect(base + i);
      const r = await receiveAll(c);
      expect(r.bytes).toBe(`target ${i}`.length);
      c.destroy();
    }
    expect((await pf.rule(key)).proxies.map((p: { id: string }) => p.id)).toEqual([
      `tcp4@127.0.0.1:${base}`,
      `tcp4@127.0.0.1:${base + 1}`,
      `tcp4@127.0.0.1:${base + 2}`,
    ]);
    const single = await freeRange(2);
    await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: `${single},${single + 1}`,
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
    });
    expect(await echoOnce(single, 'a')).toBe('a');
    expect(await echoOnce(single + 1, 'b')).toBe('b');
    for (const p of peers) await p.close();
  });

  it('resolves a host name target (localhost) per connection, and bridges IPv6 in to IPv4 out', async () => {
    const port = await freePort('::1');
    await pf.addRule({
      forwardTypes: ['tcp6'],
      listenAddress: '::1',
      listenPorts: String(port),
      targetAddresses: ['localhost'],
      targetPorts: String(echo.port),
    });
    expect(await echoOnce(port, 'over IPv6 to localhost', '::1')).toBe('over IPv6 to localhost');
  });

  it('fails over to the next target address when one does not answer', async () => {
    const port = await freePort();
    const { key } = await pf.addRule({
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.2', '127.0.0.1'],
      targetPorts: String(echo.port),
    });
    // 127.0.0.2 has no listener on the echo port: each connection that starts there moves on.
    for (let i = 0; i < 4; i++) expect(await echoOnce(port, `try ${i}`)).toBe(`try ${i}`);
    const logs = (await pf.call('GET', `/api/portforward/rules/${key}/logs?pageSize=100`)).body.logs;
    expect(logs.some((l: { text: string }) => /target 127\.0\.0\.2:\d+ failed: ECONNREFUSED/.test(l.text))).toBe(true);
  });
});

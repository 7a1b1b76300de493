import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Pf, startPf, udpClient, udpEcho } from './portforward-helpers.js';
import { pause, waitFor } from './wait.js';

let pf: Pf;
beforeAll(async () => {
  pf = await startPf();
});
afterAll(async () => pf?.close());

describe('UDP forwarding', () => {
  it('answers several clients, each through its own session, replies through the listening port', async () => {
    const echo = await udpEcho('udp4', 'echo:');
    const port = await freePort();
    const { key } = await pf.addRule({
      forwardTypes: ['udp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
    });
    const clients = await Promise.all(Array.from({ length: 5 }, () => udpClient('udp4')));
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(clients.map((c, i) => c.ask(`client ${i} round ${round}`, port)));
      replies.forEach((r, i) => {
        expect(r.toString()).toBe(`echo:client ${i} round ${round}`);
      });
    }
    // One upstream socket per client: the echo server saw five distinct sources.
    expect(echo.seen.size).toBe(5);
    const rule = await pf.rule(key);
    expect(rule.sessions).toBe(5);
    expect(rule.proxies[0]).toMatchObject({ protocol: 'udp', state: 'running', accepted: 5 });
    expect(rule.bytesIn).toBe(clients.length * 3 * 'client 0 round 0'.length);
    for (const c of clients) await c.close();
    await echo.close();
  });

  it('closes a session after udpTimeoutMs without traffic, and opens a new one on the next datagram', async () => {
    const echo = await udpEcho('udp4');
    const port = await freePort();
    const { key } = await pf.addRule({
      forwardTypes: ['udp'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
      udpTimeoutMs: 300,
      logLevel: 5,
    });
    const c = await udpClient('udp4');
    await c.ask('one', port);
    expect((await pf.rule(key)).sessions).toBe(1);
    // Traffic keeps it alive past the time-out … (the pauses are the behaviour under test: 4 × 150 ms
    // of traffic outlasts the 300 ms idle time-out)
    for (let i = 0; i < 4; i++) {
      await pause(150);
      await c.ask('keep', port);
    }
    expect((await pf.rule(key)).sessions).toBe(1);
    // … silence ends it.
    const gone = await waitFor(
      () => pf.rule(key),
      (r) => r.sessions === 0,
      2000,
    );
    expect(gone.lastLogs.some((l: { text: string }) => /session closed: idle for 300 ms/.test(l.text))).toBe(true);
    expect((await c.ask('again', port)).toString()).toBe('again');
    expect(echo.seen.size).toBe(2);
    await c.close();
    await echo.close();
  });

  it('forwards IPv6 clients to an IPv4 target, and to a host name resolved per session', async () => {
    const echo = await udpEcho('udp4', 'v4:');
    const port = await freePort('::1');
    await pf.addRule({
      forwardTypes: ['udp6'],
      listenAddress: '::1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
    });
    const c = await udpClient('udp6');
    expect((await c.ask('v6 to v4', port)).toString()).toBe('v4:v6 to v4');

    // `localhost` may resolve to 127.0.0.1 or ::1: answer on both, on the same port.
    const echo6 = await udpEcho('udp6', 'v6:', echo.port).catch(() => undefined);
    const byName = await freePort('::1');
    await pf.addRule({
      forwardTypes: ['udp6'],
      listenAddress: '::1',
      listenPorts: String(byName),
      targetAddresses: ['localhost'],
      targetPorts: String(echo.port),
    });
    expect((await c.ask('by name', byName)).toString()).toMatch(/^v[46]:by name$/);
    await c.close();
    await echo.close();
    await echo6?.close();
  });

  it('drops datagrams longer than udpPacketSize and says so in the log', async () => {
    const echo = await udpEcho('udp4');
    const port = await freePort();
    const { key } = await pf.addRule({
      forwardTypes: ['udp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(echo.port),
      udpPacketSize: 512,
    });
    const c = await udpClient('udp4');
    expect((await c.ask(Buffer.alloc(512, 1), port)).length).toBe(512);
    await expect(c.ask(Buffer.alloc(513, 1), port, '127.0.0.1', 300)).rejects.toThrow(/no UDP reply/);
    const rule = await pf.rule(key);
    expect(rule.lastLogs.some((l: { text: string }) => /dropped a 513-byte datagram/.test(l.text))).toBe(true);
    await c.close();
    await echo.close();
  });
});

// The re-check of open connections against a real gate (CoreSafeGate) and real sockets on
// loopback: the admin listener's (DualListener: its accept rule is the gate itself here, since the
// console's own rule lets every loopback peer in for the web service's relay), STUN's TCP and UDP
// forwarders, and the pass over 10,000 open items (how long the event loop is held per slice).
import dgram from 'node:dgram';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type SafeConfig, type StunRule, safeConfigSchema, safeEntrySchema, stunRuleSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/wait.js';
import { TcpForwarder } from '../../modules/stun/forward/tcpForward.js';
import { UdpForwarder } from '../../modules/stun/forward/udpForward.js';
import type { MappingHost } from '../../modules/stun/host.js';
import { DualListener } from '../http/listener.js';
import { silentLogger } from '../logs/logger.js';
import { defaultLimits } from '../net/connGuard.js';
import { loadAdminCertificate } from '../tls/adminCert.js';
import { CoreSafeGate } from './gate.js';
import { watchLists } from './recheck.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** A gate over a config the test replaces, as the core's store change would (then `changed`). */
function gateWith() {
  let cfg: SafeConfig = safeConfigSchema.parse({});
  const gate = new CoreSafeGate({ config: () => cfg, log: silentLogger });
  const addedAt = new Date().toISOString();
  return {
    gate,
    /** Block these addresses (none: an empty list), then tell the gate as the core does on a save. */
    block(...ips: string[]) {
      cfg = safeConfigSchema.parse({
        ...cfg,
        block: ips.map((value, i) => safeEntrySchema.parse({ key: `B${i}`, value, addedAt })),
      });
      gate.changed();
    },
  };
}

function connectFrom(port: number, from: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(s));
    s.on('error', reject);
    cleanup.push(() => s.destroy());
  });
}

const closed = (s: net.Socket) => s.destroyed || s.readyState === 'closed';

describe('the admin listener', () => {
  it('resets a kept-alive connection of an address the lists now refuse; another address is served on', async () => {
    const { gate, block } = gateWith();
    const listener = new DualListener(
      (_req, res) => res.end('ok'),
      await loadAdminCertificate(await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-recheck-'))),
      undefined,
      {
        reachable: () => true,
        listed: (ip) => gate.admits(ip, 'admin'),
        watch: (cb) => gate.onChange(cb),
        isLan: () => true,
        isProxy: () => false,
        limits: defaultLimits,
        log: () => undefined,
      },
    );
    const port = await listener.listen(0, '127.0.0.1');
    cleanup.push(() => void listener.close());
    const ask = (s: net.Socket) =>
      new Promise<string>((resolve) => {
        s.once('data', (d) => resolve(d.toString()));
        s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      });
    const a = await connectFrom(port, '127.0.0.2');
    const b = await connectFrom(port, '127.0.0.3');
    a.on('error', () => undefined);
    expect(await ask(a)).toMatch(/^HTTP\/1.1 200/);
    expect(await ask(b)).toMatch(/^HTTP\/1.1 200/);
    expect(gate.subscriberCount).toBe(1);
    block('127.0.0.2');
    await waitFor(() => closed(a), { what: 'the refused connection closed' });
    expect(await ask(b)).toMatch(/^HTTP\/1.1 200/);
    block();
    expect(await ask(await connectFrom(port, '127.0.0.2'))).toMatch(/^HTTP\/1.1 200/);
    await listener.close();
    expect(gate.subscriberCount).toBe(0);
  });
});

function stunHost(targetPort: number, gate: CoreSafeGate): MappingHost {
  const rule: StunRule = stunRuleSchema.parse({ key: 'R1', name: 'r', targetAddress: '127.0.0.1', targetPort });
  return {
    rule: () => rule,
    channel: () => ({ address: '127.0.0.1' }),
    servers: () => [],
    serverWorked: () => undefined,
    keepAliveUrl: () => '',
    heartbeatMs: () => 25_000,
    retrySec: () => 10,
    timeoutMs: () => 5000,
    line: () => undefined,
    addressChanged: () => undefined,
    admits: (ip) => gate.admits(ip, 'stun'),
    onListsChange: (cb) => gate.onChange(cb),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    signal: new AbortController().signal,
  };
}

describe('STUN forwarding', () => {
  it('TCP: the refused client’s relayed connection is reset, the other one relays on', async () => {
    const { gate, block } = gateWith();
    const echo = net.createServer((s) => s.pipe(s));
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    cleanup.push(() => echo.close());
    const forwarder = new TcpForwarder(stunHost((echo.address() as net.AddressInfo).port, gate));
    cleanup.push(() => forwarder.closeAll());
    const entrance = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (c) => forwarder.accept(c));
    await new Promise<void>((r) => entrance.listen(0, '127.0.0.1', r));
    cleanup.push(() => entrance.close());
    const port = (entrance.address() as net.AddressInfo).port;
    const roundTrip = (s: net.Socket, t: string) =>
      new Promise<string>((resolve) => {
        s.once('data', (d) => resolve(d.toString()));
        s.write(t);
      });
    const a = await connectFrom(port, '127.0.0.2');
    const b = await connectFrom(port, '127.0.0.3');
    let aError = '';
    a.on('error', (e: NodeJS.ErrnoException) => {
      aError = e.code ?? '';
    });
    expect(await roundTrip(a, 'a1')).toBe('a1');
    expect(await roundTrip(b, 'b1')).toBe('b1');
    block('127.0.0.2');
    await waitFor(() => closed(a), { what: 'the refused relay closed' });
    expect(aError).toBe('ECONNRESET');
    expect(await roundTrip(b, 'b2')).toBe('b2');
    expect(forwarder.size).toBe(1);
    forwarder.closeAll();
    expect(gate.subscriberCount).toBe(0);
  });

  it('UDP: the refused client’s session is dropped and its next datagram opens none', async () => {
    const { gate, block } = gateWith();
    const echo = dgram.createSocket('udp4');
    echo.on('message', (m, r) => echo.send(m, r.port, r.address));
    await new Promise<void>((r) => echo.bind(0, '127.0.0.1', r));
    cleanup.push(() => echo.close());
    const mapped = dgram.createSocket('udp4');
    await new Promise<void>((r) => mapped.bind(0, '127.0.0.1', r));
    cleanup.push(() => mapped.close());
    const forwarder = new UdpForwarder(mapped, stunHost(echo.address().port, gate));
    cleanup.push(() => forwarder.closeAll());
    mapped.on('message', (m, r) => forwarder.fromClient(m, r));
    const client = async (from: string) => {
      const s = dgram.createSocket('udp4');
      await new Promise<void>((r) => s.bind(0, from, r));
      cleanup.push(() => s.close());
      const got: string[] = [];
      s.on('message', (m) => got.push(m.toString()));
      return { got, send: (t: string) => s.send(t, mapped.address().port, '127.0.0.1') };
    };
    const a = await client('127.0.0.2');
    const b = await client('127.0.0.3');
    a.send('a1');
    b.send('b1');
    await waitFor(() => a.got.includes('a1') && b.got.includes('b1'), { what: 'both echoed' });
    expect(forwarder.size).toBe(2);
    block('127.0.0.2');
    await waitFor(() => forwarder.size === 1, { what: 'the refused session dropped' });
    a.send('a2');
    b.send('b2');
    await waitFor(() => b.got.includes('b2'), { what: 'the other session echoing' });
    expect(forwarder.size).toBe(1);
    expect(forwarder.stats.refused).toBe(1);
    expect(a.got).not.toContain('a2');
  });
});

describe('one change with 10,000 open items', () => {
  it('is worked through in slices: every refused one closed, the event loop given back between slices', async () => {
    const { gate, block } = gateWith();
    // 10,000 "connections" from 10,000 addresses (the worst case: one decision each), every other one refused.
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      closed: false,
    }));
    const slices: number[] = [];
    const watch = watchLists((cb) => gate.onChange(cb), {
      open: () => items,
      ipOf: (x) => (x.closed ? undefined : x.ip),
      admits: (ip) => gate.admits(ip, 'portforward'),
      close: (x) => {
        x.closed = true;
      },
    });
    cleanup.push(() => watch.stop());
    const started = performance.now();
    let last = started;
    // 5,000 block entries saved at once (the gate compiles them on the pass's first question).
    block(...items.filter((_, i) => i % 2 === 0).map((x) => x.ip));
    while (items.some((x, i) => i % 2 === 0 && !x.closed)) {
      await new Promise<void>((r) => setImmediate(r));
      const now = performance.now();
      slices.push(now - last);
      last = now;
    }
    await watch.idle();
    const total = performance.now() - started;
    watch.stop();
    expect(items.filter((x) => x.closed).length).toBe(5000);
    expect(items.every((x, i) => x.closed === (i % 2 === 0))).toBe(true);
    // The figures for docs/SECURITY.md (not asserted: times depend on the machine).
    console.log(
      `re-check of 10,000 open items from 10,000 addresses (5,000 refused): ${total.toFixed(1)} ms over ${slices.length} event-loop turns, the longest ${Math.max(...slices).toFixed(1)} ms`,
    );
  });
});

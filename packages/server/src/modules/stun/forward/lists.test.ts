// STUN's forwarders when the security lists change (core/safe/recheck.ts): a real gate
// (CoreSafeGate) whose block list the test sets, real sockets on loopback from 127.0.0.2 (refused
// once blocked) and 127.0.0.3 (served on), an echo target on each protocol.
import dgram from 'node:dgram';
import net from 'node:net';
import { type SafeConfig, type StunRule, safeConfigSchema, safeEntrySchema, stunRuleSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/wait.js';
import { silentLogger } from '../../../core/logs/logger.js';
import { CoreSafeGate } from '../../../core/safe/gate.js';
import type { MappingHost } from '../host.js';
import { TcpForwarder } from './tcpForward.js';
import { UdpForwarder } from './udpForward.js';

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

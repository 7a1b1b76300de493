import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pause, waitFor } from '../../../test/wait.js';
import { TokenBucket } from './limits.js';
import { adoptWithOwnedBuffers, OwnedBufferReader, Pump } from './tcpRelay.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** A connected pair: `server` is the accepted socket (paused), `client` the connecting one. */
async function pair(): Promise<{ server: net.Socket; client: net.Socket }> {
  const srv = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const accepted = new Promise<net.Socket>((r) => srv.once('connection', r));
  const client = net.connect({ port: (srv.address() as net.AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
  const server = await accepted;
  cleanup.push(() => {
    client.destroy();
    server.destroy();
    srv.close();
  });
  return { server, client };
}

describe('owned-buffer reads', () => {
  it('adopts an accepted socket on this Node and reads into growing buffers', async () => {
    const { server, client } = await pair();
    const reader = new OwnedBufferReader();
    const sock = adoptWithOwnedBuffers(server, reader);
    expect(sock).toBeInstanceOf(net.Socket);
    if (!sock) return;
    cleanup.push(() => sock.destroy());
    const sizes: number[] = [];
    let total = 0;
    reader.sink = (chunk) => {
      sizes.push(chunk.buffer.byteLength);
      total += chunk.length;
      return true;
    };
    sock.resume();
    const payload = Buffer.alloc(8 * 1024 * 1024, 3);
    client.end(payload);
    await new Promise((r) => sock.once('end', r));
    expect(total).toBe(payload.length);
    expect(Math.min(...sizes)).toBeLessThanOrEqual(4096);
    expect(Math.max(...sizes)).toBe(256 * 1024);
  });
});

describe('Pump', () => {
  it('stops reading while the destination is backed up, so memory stays bounded', async () => {
    const a = await pair();
    const b = await pair();
    // a.client → a.server → (pump) → b.server → b.client, and b.client does not read.
    const reader = new OwnedBufferReader();
    const src = adoptWithOwnedBuffers(a.server, reader) as net.Socket;
    cleanup.push(() => src.destroy());
    b.client.pause();
    let moved = 0;
    const pump = new Pump(src, b.server, reader, { count: (n) => (moved += n), buckets: [] });
    pump.start();
    const flood = Buffer.alloc(1024 * 1024, 1);
    for (let i = 0; i < 64; i++) a.client.write(flood);
    // The kernel buffers towards b.client are full once the relay has bytes it cannot hand on.
    await waitFor(() => b.server.writableLength > 0, { what: 'the destination backed up' });
    // Then time for a relay that ignored the back-pressure to read on (this wait is the test).
    await pause(200);
    // Kernel buffers hold a few MiB; the relay itself holds at most one read buffer.
    expect(b.server.writableLength).toBeLessThanOrEqual(256 * 1024);
    expect(moved).toBeLessThan(40 * 1024 * 1024);
    const before = moved;
    b.client.resume();
    await waitFor(() => moved > before, { what: 'the relay moving again' });
    pump.stop();
  });

  it('passes the end on after the data, in stream mode too, and obeys a speed limit', async () => {
    const a = await pair();
    const b = await pair();
    a.server.on('error', () => {});
    const bucket = new TokenBucket(2_000_000);
    const pump = new Pump(a.server, b.server, undefined, { count: () => {}, buckets: [bucket] });
    pump.start();
    const got: Buffer[] = [];
    b.client.on('data', (d) => got.push(d));
    const ended = new Promise((r) => b.client.once('end', r));
    const t0 = performance.now();
    a.client.end(Buffer.alloc(600_000, 9));
    await ended;
    const secs = (performance.now() - t0) / 1000;
    expect(Buffer.concat(got).length).toBe(600_000);
    // 600 kB at 2 MB/s: about 0.3 s, minus the 100 kB burst.
    expect(secs).toBeGreaterThan(0.2);
  });
});

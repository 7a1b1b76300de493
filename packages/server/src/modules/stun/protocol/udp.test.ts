// The UDP channel on a recording socket and fake timers: the RFC 8489 §6.2.1 schedule to the
// millisecond, which answers are taken (and from where), and that payload is left to the caller.
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StunError } from './errors.js';
import { ATTR, BINDING_ERROR, BINDING_SUCCESS, decodeMessage, encodeAddress, encodeMessage } from './message.js';
import { type DatagramSocket, UdpStunChannel } from './udp.js';

const SERVER = { address: '192.0.2.1', port: 3478 };

class RecordingSocket implements DatagramSocket {
  readonly sent: { at: number; bytes: Buffer; port: number; address: string }[] = [];
  sendError?: Error;
  send(msg: Buffer, port: number, address: string, cb: (error: Error | null, bytes: number) => void): void {
    this.sent.push({ at: Date.now(), bytes: Buffer.from(msg), port, address });
    const err = this.sendError;
    queueMicrotask(() => cb(err ?? null, msg.length));
  }
  address(): AddressInfo {
    return { address: '0.0.0.0', family: 'IPv4', port: 40000 };
  }
}

/** A success answer to the request `req`, mapped to 198.51.100.7:`port`. */
function answer(req: Buffer, port = 50000, extra: { type: number; value: Buffer }[] = []): Buffer {
  const txn = req.subarray(8, 20);
  return encodeMessage(BINDING_SUCCESS, txn, [
    { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress({ family: 4, address: '198.51.100.7', port }, txn) },
    ...extra,
  ]);
}

/** The StunError `p` rejects with (a resolution fails the test). */
function failureOf(p: Promise<unknown>): Promise<StunError> {
  return p.then(
    (v) => {
      throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
    },
    (e: StunError) => e,
  );
}

/** Whether the promise has settled, after the pending microtasks and zero-delay timers ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('UdpStunChannel', () => {
  let socket: RecordingSocket;
  let channel: UdpStunChannel;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    socket = new RecordingSocket();
    channel = new UdpStunChannel(socket);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retransmits at 0, 500, 1500, 3500, 7500, 15500, 31500 ms and gives up at 39 500 ms', async () => {
    const p = channel.binding(SERVER);
    const failure = failureOf(p);
    await vi.advanceTimersByTimeAsync(39_499);
    expect(socket.sent.map((s) => s.at - 1_000_000)).toEqual([0, 500, 1500, 3500, 7500, 15500, 31500]);
    // Every retransmission is the same request (same transaction).
    expect(new Set(socket.sent.map((s) => s.bytes.toString('hex'))).size).toBe(1);
    expect(await settled(p)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = await failure;
    expect(e.code).toBe('timeout');
    expect(e.params).toEqual({ server: '192.0.2.1:3478', requests: 7 });
    expect(socket.sent).toHaveLength(7);
    expect(channel.pendingCount).toBe(0);
  });

  it('Rc, RTO and Rm are the caller’s: RTO 100, Rc 3, Rm 4 → sends at 0, 100, 300, fails at 700', async () => {
    const p = channel.binding(SERVER, { rtoMs: 100, rc: 3, rm: 4 });
    const failure = failureOf(p);
    await vi.advanceTimersByTimeAsync(699);
    expect(socket.sent.map((s) => s.at - 1_000_000)).toEqual([0, 100, 300]);
    expect(await settled(p)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await failure).code).toBe('timeout');
  });

  it('an answer from the server ends the transaction and stops the retransmissions', async () => {
    const p = channel.binding(SERVER);
    await vi.advanceTimersByTimeAsync(600);
    const req = socket.sent[0].bytes;
    expect(channel.handle(answer(req, 50001, [{ type: ATTR.SOFTWARE, value: Buffer.from('coturn') }]), SERVER)).toBe(
      true,
    );
    const a = await p;
    expect(a).toEqual({
      mapped: { address: '198.51.100.7', port: 50001 },
      otherAddress: undefined,
      responseOrigin: undefined,
      server: SERVER,
      rttMs: 600,
      software: 'coturn',
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.sent).toHaveLength(2);
    // A late duplicate of the answer is still ours (not payload to forward), and changes nothing.
    expect(channel.handle(answer(req), SERVER)).toBe(true);
  });

  it('answers from an unexpected address or port are ignored', async () => {
    const p = channel.binding(SERVER);
    await vi.advanceTimersByTimeAsync(0);
    const req = socket.sent[0].bytes;
    expect(channel.handle(answer(req, 1), { address: '192.0.2.66', port: 3478 })).toBe(true);
    expect(channel.handle(answer(req, 2), { address: '192.0.2.1', port: 3479 })).toBe(true);
    expect(await settled(p)).toBe(false);
    expect(channel.handle(answer(req, 3), { address: '::ffff:192.0.2.1', port: 3478 })).toBe(true);
    expect((await p).mapped.port).toBe(3);
  });

  it('under CHANGE-REQUEST only the asked change is accepted, and the answer says who answered', async () => {
    const ipOnly = channel.binding(SERVER, { changeIp: true });
    await vi.advanceTimersByTimeAsync(0);
    const req1 = socket.sent[0].bytes;
    expect(
      decodeMessage(req1)
        .attributes.find((a) => a.type === ATTR.CHANGE_REQUEST)
        ?.value.readUInt32BE(0),
    ).toBe(4);
    channel.handle(answer(req1, 1), { address: '192.0.2.2', port: 3479 });
    expect(await settled(ipOnly)).toBe(false);
    channel.handle(answer(req1, 2), { address: '192.0.2.2', port: 3478 });
    expect((await ipOnly).server).toEqual({ address: '192.0.2.2', port: 3478 });

    const both = channel.binding(SERVER, { changeIp: true, changePort: true });
    await vi.advanceTimersByTimeAsync(0);
    channel.handle(answer(socket.sent[1].bytes, 3), { address: '192.0.2.2', port: 3479 });
    expect((await both).server).toEqual({ address: '192.0.2.2', port: 3479 });
  });

  it('payload and other STUN traffic on the socket are left to the caller', async () => {
    const p = channel.binding(SERVER);
    await vi.advanceTimersByTimeAsync(0);
    expect(channel.handle(Buffer.from('hello, forwarded world'), SERVER)).toBe(false);
    const otherTxn = Buffer.from(socket.sent[0].bytes);
    otherTxn[19] ^= 0xff;
    expect(channel.handle(answer(otherTxn), SERVER)).toBe(false);
    expect(await settled(p)).toBe(false);
    channel.close();
    await expect(p).rejects.toMatchObject({ code: 'closed' });
  });

  it('a malformed answer is dropped and the retransmissions go on; at the end the error names it', async () => {
    const p = channel.binding(SERVER, { rtoMs: 100, rc: 2, rm: 2 });
    const failure = failureOf(p);
    await vi.advanceTimersByTimeAsync(0);
    const bad = answer(socket.sent[0].bytes);
    bad[bad.length - 1] ^= 1;
    expect(channel.handle(bad, SERVER)).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(socket.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    const e = await failure;
    expect(e.code).toBe('invalidAnswer');
    expect(e.params).toEqual({ server: '192.0.2.1:3478', reason: 'badFingerprint' });
  });

  it('an error answer fails at once with its status', async () => {
    const p = channel.binding(SERVER, { changeIp: true });
    await vi.advanceTimersByTimeAsync(0);
    const txn = socket.sent[0].bytes.subarray(8, 20);
    const value = Buffer.concat([Buffer.from([0, 0, 4, 20]), Buffer.from('Unknown Attribute')]);
    channel.handle(encodeMessage(BINDING_ERROR, txn, [{ type: ATTR.ERROR_CODE, value }]), SERVER);
    await expect(p).rejects.toMatchObject({ code: 'errorResponse', params: { status: 420 } });
  });

  it('abort, send errors and a closed channel reject with their codes', async () => {
    const ac = new AbortController();
    const p = channel.binding(SERVER, { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'aborted' });
    await expect(channel.binding(SERVER, { signal: ac.signal })).rejects.toMatchObject({ code: 'aborted' });

    socket.sendError = Object.assign(new Error('unreachable'), { code: 'ENETUNREACH' });
    await expect(channel.binding(SERVER)).rejects.toMatchObject({
      code: 'sendFailed',
      params: { error: 'ENETUNREACH' },
    });
    socket.sendError = undefined;

    channel.close();
    await expect(channel.binding(SERVER)).rejects.toMatchObject({ code: 'closed' });
    expect(channel.pendingCount).toBe(0);
  });

  it('concurrent transactions are told apart by their ids', async () => {
    const a = channel.binding(SERVER);
    const b = channel.binding(SERVER);
    await vi.advanceTimersByTimeAsync(0);
    channel.handle(answer(socket.sent[1].bytes, 2), SERVER);
    channel.handle(answer(socket.sent[0].bytes, 1), SERVER);
    expect((await a).mapped.port).toBe(1);
    expect((await b).mapped.port).toBe(2);
  });

  it('local() is the socket’s address', () => {
    expect(channel.local()).toEqual({ address: '0.0.0.0', port: 40000 });
  });
});

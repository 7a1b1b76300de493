// One request / answer exchange with a NAT-PMP or PCP server over UDP, retransmitted on the
// RFC 6886 §3.1 schedule (first wait 250 ms, doubling, 9 requests ≈ 128 s in all; PCP uses the same
// so that 'auto' can fall back quickly). The socket is connected, so the kernel drops datagrams
// from anyone but the gateway and reports an ICMP port-unreachable as ECONNREFUSED.
import dgram from 'node:dgram';
import { asPortMapError, type PortMapCode, PortMapError, type PortMapMethodName } from './errors.js';

export interface UdpExchangeOptions {
  /** Source address of the request (the address the mapping is for); default: the kernel's choice. */
  localAddress?: string;
  /** First wait for an answer, doubled after each request (RFC 6886: 250 ms). */
  initialTimeoutMs?: number;
  /** Requests sent before giving up (RFC 6886: 9). A shorter cap makes 'no gateway' quicker. */
  maxTries?: number;
  signal?: AbortSignal;
}

/** What `accept` makes of one datagram: the result, or why it was not taken (ignored, keep waiting). */
export type Verdict<T> = { value: T } | { ignore: string };

export const NATPMP_PORT = 5351;
/** RFC 6887 §7: no PCP message is longer than this; bigger datagrams are not read further. */
export const MAX_ANSWER_BYTES = 1100;

/**
 * Sends `request(local)` (local = the source address the kernel chose) to gateway:port until
 * `accept` takes an answer. `accept` may throw a PortMapError for a definite refusal (a result
 * code), which ends the exchange. Garbage from the gateway is ignored like silence; when the
 * requests run out after garbage the error says so (`badAnswer`), else `timeout`.
 */
export function udpExchange<T>(
  method: PortMapMethodName,
  gateway: string,
  port: number,
  request: (local: string) => Buffer,
  accept: (msg: Buffer) => Verdict<T>,
  opts: UdpExchangeOptions = {},
): Promise<T> {
  const initial = opts.initialTimeoutMs ?? 250;
  const maxTries = opts.maxTries ?? 9;
  const meta = { method, gateway };
  return new Promise<T>((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new PortMapError('aborted', meta));
      return;
    }
    const socket = dgram.createSocket('udp4');
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let tries = 0;
    let wait = initial;
    let packet: Buffer | undefined;
    let ignored: string | undefined;
    const finish = (err: Error | undefined, value?: T) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      socket.close();
      if (err) reject(err);
      else resolve(value as T);
    };
    const onAbort = () => finish(new PortMapError('aborted', meta));
    const send = () => {
      if (done || !packet) return;
      if (tries >= maxTries) {
        finish(
          ignored === undefined
            ? new PortMapError('timeout', meta)
            : new PortMapError('badAnswer', { ...meta, detail: ignored }),
        );
        return;
      }
      tries++;
      socket.send(packet, (err) => {
        if (err) finish(asPortMapError(err, method, gateway));
      });
      timer = setTimeout(send, wait);
      wait *= 2;
    };
    socket.on('message', (msg) => {
      if (done) return;
      try {
        const verdict = msg.length > MAX_ANSWER_BYTES ? { ignore: `${msg.length}-byte answer` } : accept(msg);
        if ('value' in verdict) finish(undefined, verdict.value);
        else ignored = verdict.ignore;
      } catch (err) {
        finish(asPortMapError(err, method, gateway));
      }
    });
    socket.on('error', (err) => finish(asPortMapError(err, method, gateway)));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    socket.bind({ address: opts.localAddress ?? '0.0.0.0', port: 0 }, () => {
      if (done) return;
      socket.connect(port, gateway, () => {
        if (done) return;
        packet = request(socket.address().address);
        send();
      });
    });
  });
}

const NATPMP_RESULTS: Record<number, PortMapCode> = {
  1: 'unsupportedVersion',
  2: 'notAuthorized',
  3: 'networkFailure',
  4: 'outOfResources',
  5: 'unsupportedOpcode',
};
const PCP_RESULTS: Record<number, PortMapCode> = {
  1: 'unsupportedVersion',
  2: 'notAuthorized',
  3: 'malformedRequest',
  4: 'unsupportedOpcode',
  5: 'unsupportedOption',
  6: 'malformedOption',
  7: 'networkFailure',
  8: 'outOfResources',
  9: 'unsupportedProtocol',
  10: 'userExceededQuota',
  11: 'cannotProvideExternal',
  12: 'addressMismatch',
  13: 'excessiveRemotePeers',
};

/** The result code of a NAT-PMP (RFC 6886 §3.5) or PCP (RFC 6887 §7.4) answer as a coded error. */
export function resultError(method: 'natpmp' | 'pcp', gateway: string, result: number): PortMapError {
  const code = (method === 'natpmp' ? NATPMP_RESULTS : PCP_RESULTS)[result] ?? 'resultCode';
  return new PortMapError(code, { method, gateway, result });
}

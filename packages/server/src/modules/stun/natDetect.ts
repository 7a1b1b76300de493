import dgram from 'node:dgram';
import type { StunNatTypeBody, StunNatTypeView } from '@lucky/shared';
import { connectShared, sharedPortSupport } from '../../core/net/sharedPort.js';
import { resolveChannel } from './channel.js';
import { pickLocalPort } from './localPort.js';
import { MappingError, stunReason } from './mapping.js';
import { detectNatType, type NatTypeResult } from './protocol/natType.js';
import { UdpStunChannel } from './protocol/udp.js';
import { resolveServer } from './servers.js';

const text = (e: { address: string; port: number } | undefined) => (e ? `${e.address}:${e.port}` : undefined);

/**
 * RFC 5780 behaviour discovery through a channel: UDP mapping and filtering, and TCP mapping when
 * the shared-port helper is built. Servers are tried in order until one answers with an alternate
 * address (only servers with two addresses can tell the behaviours apart).
 */
export async function detectNat(body: Required<StunNatTypeBody>, signal: AbortSignal): Promise<StunNatTypeView> {
  const c = resolveChannel(body);
  if (!c.ok) throw new MappingError(stunReason(c.code, c.params));
  const { address, device } = c.channel;
  let last: { result: NatTypeResult; server: string } | undefined;
  const notes: string[] = [];
  for (const entry of body.stunServers) {
    if (signal.aborted) break;
    let server: { address: string; port: number };
    try {
      server = await resolveServer(entry);
    } catch (err) {
      notes.push(`${entry}: ${(err as Error).message}`);
      continue;
    }
    const port = await pickLocalPort(address, ['tcp', 'udp']);
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ address, port }, () => resolve());
    });
    const udp = new UdpStunChannel(socket);
    socket.on('message', (msg, rinfo) => udp.handle(msg, rinfo));
    try {
      const result = await detectNatType({
        server,
        udp,
        ...(sharedPortSupport().ok
          ? {
              connect: (host: string, p: number) =>
                connectShared({ address, port, ...(device ? { device } : {}) }, host, p, {
                  timeoutMs: body.timeoutMs,
                  signal,
                }),
            }
          : {}),
        tcpTimeoutMs: body.timeoutMs,
        // The rule's time-out bounds each UDP test too: RFC 5780's schedule (4 requests at RTO,
        // 2 RTO, 4 RTO, then 6 RTO of waiting) spans 13 RTOs, so a lost test costs `timeoutMs`.
        timing: { rtoMs: Math.max(40, Math.round(body.timeoutMs / 13)), rc: 4, rm: 6 },
        signal,
      });
      last = { result, server: entry };
      if (result.verdict !== 'unsupportedServer' && result.verdict !== 'blocked') break;
    } catch (err) {
      notes.push(`${entry}: ${(err as Error).message}`);
    } finally {
      socket.close();
    }
  }
  if (!last) throw new MappingError(stunReason('allServersFailed', { detail: notes.join('; ') || 'no server' }));
  const r = last.result;
  const pub = text(r.publicAddress);
  return {
    at: Date.now(),
    verdict: r.verdict,
    mapping: r.mapping,
    filtering: r.filtering,
    ...(r.tcpMapping ? { tcpMapping: r.tcpMapping } : {}),
    ...(pub ? { publicAddress: pub } : {}),
    server: last.server,
    detail: r.detail,
  };
}

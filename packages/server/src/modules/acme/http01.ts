// HTTP-01: the key authorization goes on the core's board (ctx.challenges), which every web-service
// rule and the admin console answer on plain HTTP. When no web-service rule listens on the
// certificate's port, a stand-alone responder listens there for the order's duration; a port some
// other owner holds is refused up front (`httpPortBusy`) rather than fought over.
import http from 'node:http';
import { challengeAnswer } from '../../core/certs/challenges.js';
import { normalizeIp } from '../../core/http/clientIp.js';
import type { ModuleContext } from '../../core/modules/types.js';
import { bindWithFallback } from '../../core/net/bindPort.js';
import { detailOf, OrderFailure, reason } from './reasons.js';

const ANSWER_THE_BOARD = new Set(['reverseproxy', 'admin']);

/** Who answers HTTP-01 on `port`: the web service or the console, a stand-alone responder, or (refused) someone else. */
export function http01Answerer(
  ctx: Pick<ModuleContext, 'ports'>,
  port: number,
): { by: 'board' } | { by: 'responder' } | { by: 'other'; owner: string } {
  const held = ctx.ports.list().filter((c) => c.proto === 'tcp' && c.port === port);
  // The web service's rules and the admin console answer the board themselves.
  if (held.some((c) => ANSWER_THE_BOARD.has(c.owner.module))) return { by: 'board' };
  const other = held.find((c) => c.owner.module !== 'acme');
  if (other)
    return {
      by: 'other',
      owner: other.owner.item ? `${other.owner.module} "${other.owner.item}"` : other.owner.module,
    };
  return { by: 'responder' };
}

/**
 * A stand-alone responder on `port` (every address) answering only the board's tokens; 404 for
 * anything else. Answers the close function.
 */
export async function startResponder(
  ctx: Pick<ModuleContext, 'challenges' | 'safe'>,
  port: number,
): Promise<() => Promise<void>> {
  const server = http.createServer((req, res) => {
    const keyAuth = challengeAnswer((t) => ctx.challenges.get(t), req.method, req.url, false);
    if (keyAuth === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(keyAuth)) });
    res.end(req.method === 'HEAD' ? undefined : keyAuth);
  });
  // The global lists hold here as at every listener (core/safe): decided at accept.
  server.on('connection', (socket) => {
    if (!ctx.safe.admits(normalizeIp(socket.remoteAddress ?? ''))) socket.destroy();
  });
  // Only the CA's few fetches: short time-outs, no keep-alive to hold the port open.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 0;
  try {
    await bindWithFallback({ host: '', port }, (t) => {
      return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host: t.host, port: t.port, ipv6Only: t.ipv6Only }, () => {
          server.off('error', reject);
          resolve();
        });
      });
    });
  } catch (err) {
    throw new OrderFailure(reason('httpResponderFailed', { port, detail: detailOf(err) }));
  }
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

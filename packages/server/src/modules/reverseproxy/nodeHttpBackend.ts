// The back-end client of last resort: node:http's own client behind the same interface as
// BackendPool (backendClient.ts). Used only when node's internal HTTP parser fails the start-up
// self-test (core/serve/llhttp.ts: `llhttpProblem`), so that a Node release that drops or changes
// node:_http_common (DEP0199) costs speed, never service. node:http frames what it sends itself
// (Content-Length or chunked from what is written), keeps its own keep-alive pool per Agent and
// never reuses a socket whose answer was not read to the end.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AnswerHandler, BackendRequest, HeaderMap, Upgraded } from './backendClient.js';

const CONNECT_TIMEOUT_MS = 5_000;
const HEADERS_TIMEOUT_MS = 60_000;

function codedError(code: string, message: string): NodeJS.ErrnoException {
  const e = new Error(message) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

/** What the proxy needs of a connection pool to one back end. */
export interface BackendConnections {
  readonly secure: boolean;
  request(req: BackendRequest, handler: AnswerHandler): void;
  upgrade(path: string, headers: HeaderMap): Promise<Upgraded>;
  close(): void;
}

export class NodeHttpBackend implements BackendConnections {
  readonly secure: boolean;
  private readonly agent: http.Agent;
  private readonly base: http.RequestOptions;
  private closed = false;

  constructor(origin: string, skipVerify: boolean) {
    const u = new URL(origin);
    this.secure = u.protocol === 'https:';
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    const agentOptions = { keepAlive: true, keepAliveMsecs: 4_000, maxSockets: 256, timeout: HEADERS_TIMEOUT_MS };
    this.agent = this.secure
      ? new https.Agent({
          ...agentOptions,
          rejectUnauthorized: !skipVerify,
          servername: net.isIP(host) === 0 ? host : undefined,
        })
      : new http.Agent(agentOptions);
    this.base = { host, port: Number(u.port) || (this.secure ? 443 : 80), agent: this.agent, setHost: false };
  }

  request(req: BackendRequest, handler: AnswerHandler): void {
    if (this.closed) {
      handler.onError(codedError('ECONNABORTED', 'the web service is stopping'));
      return;
    }
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      if (err) handler.onError(err);
      else handler.onComplete();
    };
    let out: http.ClientRequest;
    try {
      // Framing is node's: drop what the proxy put there for its own client.
      const headers = { ...req.headers };
      delete headers['transfer-encoding'];
      delete headers['content-length'];
      if (req.bodyLength !== undefined) headers['content-length'] = String(req.bodyLength);
      out = (this.secure ? https : http).request({ ...this.base, method: req.method, path: req.path, headers });
    } catch (err) {
      finish(codedError('EINVALIDREQUEST', (err as Error).message));
      return;
    }
    const connectTimer = setTimeout(
      () => out.destroy(codedError('ETIMEDOUT', `connect timed out after ${CONNECT_TIMEOUT_MS / 1000} s`)),
      CONNECT_TIMEOUT_MS,
    );
    out.once('socket', (s) => {
      if (!s.connecting) clearTimeout(connectTimer);
      else s.once(this.secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    out.on('error', (err) => {
      clearTimeout(connectTimer);
      finish(err);
    });
    out.on('response', (answer) => {
      clearTimeout(connectTimer);
      try {
        handler.onHeaders(answer.statusCode ?? 502, answer.rawHeaders, () => answer.resume());
      } catch (err) {
        out.destroy(err as Error);
        return;
      }
      answer.on('data', (chunk: Buffer) => {
        if (!handler.onData(chunk)) answer.pause();
      });
      answer.on('end', () => finish());
      answer.on('aborted', () => finish(codedError('ECONNRESET', 'the back end closed the connection early')));
      answer.on('error', (err) => finish(err));
    });
    handler.onConnect((err) => out.destroy(err));
    if (!req.body) {
      out.end();
      return;
    }
    req.body.on('error', (err) => out.destroy(err));
    req.body.pipe(out);
  }

  upgrade(path: string, headers: HeaderMap): Promise<Upgraded> {
    return new Promise((resolve, reject) => {
      const out = (this.secure ? https : http).request({ ...this.base, agent: false, method: 'GET', path, headers });
      const timer = setTimeout(
        () => out.destroy(codedError('ETIMEDOUT', `no answer to the upgrade within ${HEADERS_TIMEOUT_MS / 1000} s`)),
        HEADERS_TIMEOUT_MS,
      );
      out.on('upgrade', (answer, socket, head) => {
        clearTimeout(timer);
        socket.pause();
        resolve({ raw: answer.rawHeaders, socket, head });
      });
      out.on('response', (answer) => {
        clearTimeout(timer);
        answer.resume();
        out.destroy();
        reject(codedError('EUPGRADEREFUSED', `the back end answered ${answer.statusCode} to the upgrade`));
      });
      out.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      out.end();
    });
  }

  close(): void {
    this.closed = true;
    this.agent.destroy();
  }
}

// A small FTP client for the tests that need the wire itself (exact replies, attacks, bytes no
// real client sends): a control connection that sends lines and reads whole replies (multi-line
// aware), AUTH TLS on it, and passive data connections (PASV / EPSV, optionally TLS).
import { once } from 'node:events';
import net from 'node:net';
import tls from 'node:tls';

export interface Reply {
  code: number;
  /** Every line, as sent (without CRLF). */
  lines: string[];
  text: string;
}

export class FtpTestClient {
  socket: net.Socket | tls.TLSSocket;
  private buf = '';
  private replies: Reply[] = [];
  private waiters: Array<(r: Reply | undefined) => void> = [];
  private partial: string[] = [];
  closed = false;
  private tlsSession: Buffer | undefined;

  private constructor(
    socket: net.Socket,
    readonly host: string,
    /** Data connections come from the control connection's address (the server refuses others). */
    readonly localAddress: string | undefined,
  ) {
    this.socket = socket;
    this.attach(socket);
    this.closed = socket.destroyed;
  }

  /** Connects and reads the greeting (returned in `greeting`). */
  static async connect(port: number, host = '127.0.0.1', localAddress?: string): Promise<FtpTestClient> {
    const socket = net.connect({ port, host, localAddress });
    socket.on('error', () => {});
    // A refused connection (reset at accept) resolves too: its first read says it closed.
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('close', () => resolve());
    });
    const c = new FtpTestClient(socket, host, localAddress);
    return c;
  }

  private attach(s: net.Socket | tls.TLSSocket): void {
    s.setEncoding('utf8');
    s.on('data', (d: string) => this.feed(d));
    s.on('error', () => {});
    s.on('close', () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w(undefined);
    });
  }

  private feed(d: string): void {
    this.buf += d;
    for (;;) {
      const i = this.buf.indexOf('\r\n');
      if (i < 0) return;
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 2);
      this.partial.push(line);
      const first = this.partial[0] as string;
      const code = first.slice(0, 3);
      const multi = first[3] === '-';
      if (!multi || (line.startsWith(code) && line[3] === ' ')) {
        const lines = this.partial;
        this.partial = [];
        const r = { code: Number(code), lines, text: lines.join('\n') };
        const w = this.waiters.shift();
        if (w) w(r);
        else this.replies.push(r);
      }
    }
  }

  /** The next reply; rejects when the connection closes first or after `timeoutMs`. */
  read(timeoutMs = 10_000): Promise<Reply> {
    const r = this.replies.shift();
    if (r) return Promise.resolve(r);
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((x) => {
        clearTimeout(timer);
        if (x) resolve(x);
        else reject(new Error('connection closed'));
      });
    });
  }

  sendRaw(data: string | Buffer): void {
    this.socket.write(data);
  }

  async cmd(line: string | Buffer): Promise<Reply> {
    this.sendRaw(Buffer.isBuffer(line) ? Buffer.concat([line, Buffer.from('\r\n')]) : `${line}\r\n`);
    return this.read();
  }

  async login(user: string, password: string): Promise<Reply> {
    const u = await this.cmd(`USER ${user}`);
    if (u.code !== 331) return u;
    return this.cmd(`PASS ${password}`);
  }

  /** AUTH TLS then the handshake, trusting `ca`. */
  async startTls(ca: string, servername = 'localhost'): Promise<Reply> {
    const r = await this.cmd('AUTH TLS');
    if (r.code !== 234) return r;
    const raw = this.socket as net.Socket;
    raw.removeAllListeners('data');
    const t = tls.connect({ socket: raw, ca, servername, minVersion: 'TLSv1.2' });
    t.on('session', (s: Buffer) => {
      this.tlsSession = s;
    });
    await once(t, 'secureConnect');
    this.socket = t;
    this.attach(t);
    return r;
  }

  /** PASV (or EPSV) and a connection to the port it names; `host` overrides the announced address. */
  async passive(
    opts: { epsv?: boolean; localAddress?: string; host?: string } = {},
  ): Promise<{ reply: Reply; port: number; connect(): Promise<net.Socket> }> {
    const reply = await this.cmd(opts.epsv ? 'EPSV' : 'PASV');
    let port = 0;
    if (opts.epsv) port = Number(/\(\|\|\|(\d+)\|\)/.exec(reply.text)?.[1] ?? 0);
    else {
      const m = /\((\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)/.exec(reply.text);
      if (m) port = Number(m[5]) * 256 + Number(m[6]);
    }
    const host = opts.host ?? this.host;
    return {
      reply,
      port,
      connect: async () => {
        const s = net.connect({ port, host, localAddress: opts.localAddress ?? this.localAddress });
        s.on('error', () => {});
        await once(s, 'connect');
        return s;
      },
    };
  }

  /** TLS on a data connection, offering the control connection's session for resumption. */
  async protect(data: net.Socket, ca: string, servername = 'localhost'): Promise<tls.TLSSocket> {
    const t = tls.connect({ socket: data, ca, servername, session: this.tlsSession, minVersion: 'TLSv1.2' });
    await once(t, 'secureConnect');
    return t;
  }

  /**
   * Runs a command that reads over a data connection (LIST, RETR …): PASV, connect, the command,
   * everything the data connection brings, then the final reply.
   */
  async fetch(
    line: string | Buffer,
    opts: { epsv?: boolean; ca?: string } = {},
  ): Promise<{ first: Reply; last?: Reply; data: Buffer }> {
    const p = await this.passive(opts);
    if (p.reply.code !== 227 && p.reply.code !== 229) return { first: p.reply, data: Buffer.alloc(0) };
    const raw = await p.connect();
    const first = await this.cmd(line);
    if (first.code !== 150 && first.code !== 125) {
      raw.destroy();
      return { first, data: Buffer.alloc(0) };
    }
    const data = opts.ca ? await this.protect(raw, opts.ca) : raw;
    const chunks: Buffer[] = [];
    data.on('data', (c: Buffer) => chunks.push(c));
    await once(data, 'close');
    const last = await this.read();
    return { first, last, data: Buffer.concat(chunks) };
  }

  /** STOR-like commands: PASV, connect, the command, `body` written, the data connection closed, the final reply. */
  async store(
    line: string | Buffer,
    body: Buffer | string,
    opts: { epsv?: boolean; ca?: string } = {},
  ): Promise<{ first: Reply; last?: Reply }> {
    const p = await this.passive(opts);
    if (p.reply.code !== 227 && p.reply.code !== 229) return { first: p.reply };
    const raw = await p.connect();
    const first = await this.cmd(line);
    if (first.code !== 150 && first.code !== 125) {
      raw.destroy();
      return { first };
    }
    const data = opts.ca ? await this.protect(raw, opts.ca) : raw;
    data.end(body);
    await once(data, 'close');
    const last = await this.read();
    return { first, last };
  }

  close(): void {
    this.socket.destroy();
  }
}

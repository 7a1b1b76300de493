// One FTP control connection: reads command lines (capped, throttled, one command at a time
// with ABOR / STAT / QUIT taken while a transfer runs), keeps the session's state (login, TLS,
// working folder, REST offset, rename source, passive listener, transfer) and its time-outs (log
// in within the login time-out, then no silence longer than the idle time-out).
import { randomBytes } from 'node:crypto';
import type net from 'node:net';
import type tls from 'node:tls';
import type { FtpserverSessionView } from '@lucky/shared';
import { COMMANDS, type Command } from './commands.js';
import { FtpError } from './errors.js';
import { LineReader } from './lineReader.js';
import { MLST_FACTS, type MlstFact } from './listing.js';
import type { PassiveListener } from './passive.js';
import { formatReply } from './reply.js';
import { serverHandshake } from './tls.js';
import type { LoggedIn, SessionHost } from './types.js';
import { VirtualFs } from './virtualFs.js';

/** Lines read ahead while a command runs; the socket is paused beyond this. */
const QUEUE_MAX = 16;
/** A client that does not read its replies is dropped past this much unsent reply text. */
const REPLY_BACKLOG_MAX = 1 << 20;
/** Commands taken at once even while another one runs (RFC 959 §4.1.3: ABOR, STAT, QUIT). */
const URGENT = new Set(['ABOR', 'STAT', 'QUIT']);

export interface TransferState {
  verb: NonNullable<FtpserverSessionView['transfer']>['verb'];
  path: string;
  since: number;
  bytes: number;
  rate: number;
  /** Rate window: bytes and time at its start. */
  windowAt: number;
  windowBytes: number;
  abort: AbortController;
  /** Settles when the transfer's command has answered (ABOR waits for its 426). */
  done: Promise<void>;
}

const bare = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

export class FtpSession {
  readonly id = randomBytes(6).toString('hex');
  readonly since = Date.now();
  readonly ip: string;
  readonly client: string;
  socket: net.Socket | tls.TLSSocket;
  private readonly reader: LineReader;
  private queue: Buffer[] = [];
  private input: Buffer | undefined;
  private busy = false;
  private pumping = false;
  private closed = false;
  private tokens: number;
  private tokensAt = Date.now();
  private throttleTimer: NodeJS.Timeout | undefined;
  private throttledLogged = false;
  private loginTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  lastActivity = Date.now();

  // ---- protocol state (the commands read and set these) ----
  /** The name given by USER, waiting for PASS. */
  pendingUser: string | undefined;
  user: LoggedIn | undefined;
  loginFailures = 0;
  /**
   * A PASS is being checked: its own reply path asks the security lists after the 530 (a guess
   * that got the address banned ends with "421 … refused"), so their re-check leaves it to that.
   */
  loginUnderWay = false;
  tls = false;
  tlsContext: tls.SecureContext | undefined;
  pbsz = false;
  protectedData = false;
  cwd = '/';
  restOffset = 0;
  /** Set by RNFR for the next command only. */
  renameFrom: string | undefined;
  passive: PassiveListener | undefined;
  epsvAll = false;
  mlstFacts = new Set<MlstFact>(MLST_FACTS);
  transfer: TransferState | undefined;
  bytesIn = 0;
  bytesOut = 0;
  readonly fs: VirtualFs;

  constructor(
    readonly raw: net.Socket,
    readonly host: SessionHost,
    private readonly onClose: (s: FtpSession) => void,
  ) {
    this.socket = raw;
    this.ip = bare(raw.remoteAddress ?? '');
    this.client = this.ip.includes(':') ? `[${this.ip}]:${raw.remotePort}` : `${this.ip}:${raw.remotePort}`;
    this.reader = new LineReader(host.limits.lineMax);
    this.tokens = host.limits.commandBurst;
    this.fs = new VirtualFs(
      () => (this.user ? host.mountsOf(this.user) : []),
      (key) => host.storage(key),
    );
  }

  /** The local address the client reached (passive listeners bind there). */
  get localAddress(): string {
    return bare(this.raw.localAddress ?? '');
  }

  get userName(): string {
    return this.user?.name ?? '';
  }

  start(): void {
    this.raw.on('error', () => this.close());
    this.raw.on('close', () => this.close());
    this.listen(this.raw);
    const loginMs = this.host.settings().loginTimeoutMs;
    this.loginTimer = setTimeout(() => {
      this.host.log(3, 'loginTimeout', { client: this.client, seconds: Math.round(loginMs / 1000) });
      this.reply(421, 'Login timeout; closing the connection');
      this.close();
    }, loginMs);
    this.reply(220, 'FTP server ready');
    this.raw.resume();
  }

  private listen(s: net.Socket): void {
    s.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  // ---- replies ----

  reply(code: number, text: string | readonly string[]): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(formatReply(code, text));
    if (this.socket.writableLength > REPLY_BACKLOG_MAX) this.close();
  }

  /** A reply that must be out before the connection changes (234 before the TLS handshake). */
  replyFlushed(code: number, text: string): Promise<void> {
    if (this.closed || this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.socket.write(formatReply(code, text), () => resolve()));
  }

  // ---- reading commands ----

  private onData(chunk: Buffer): void {
    this.lastActivity = Date.now();
    this.input = this.input ? Buffer.concat([this.input, chunk]) : chunk;
    this.socket.pause();
    this.pump();
  }

  /** Reads lines from the held input while the queue has room and the budget allows; resumes the socket when all is read. */
  private pump(): void {
    // Lines run as they are read, and a command that finishes at once asks for more input: the
    // reader must not be entered again while it is inside this chunk.
    if (this.pumping) return;
    this.pumping = true;
    try {
      this.pumpInput();
    } finally {
      this.pumping = false;
    }
  }

  private pumpInput(): void {
    while (this.input && !this.closed) {
      if (!this.takeToken()) return;
      if (this.queue.length >= QUEUE_MAX) return;
      const input = this.input;
      const used = this.reader.push(input, (ev) => {
        this.tokens -= 1;
        if (ev.kind === 'tooLong') {
          this.host.log(3, 'lineTooLong', { client: this.client, max: this.host.limits.lineMax });
          this.enqueue(undefined);
        } else if (ev.line.length > 0) this.enqueue(ev.line);
        return this.tokens >= 1 && this.queue.length < QUEUE_MAX && !this.closed;
      });
      this.input = used < input.length ? input.subarray(used) : undefined;
    }
    if (!this.closed && !this.input) this.socket.resume();
  }

  /** Refills the command budget; without a token, reading waits for the next one. */
  private takeToken(): boolean {
    const now = Date.now();
    const { commandRate, commandBurst } = this.host.limits;
    this.tokens = Math.min(commandBurst, this.tokens + ((now - this.tokensAt) * commandRate) / 1000);
    this.tokensAt = now;
    if (this.tokens >= 1) return true;
    if (!this.throttledLogged) {
      this.throttledLogged = true;
      this.host.log(3, 'commandsThrottled', { client: this.client, rate: commandRate });
    }
    if (!this.throttleTimer) {
      const wait = Math.ceil(((1 - this.tokens) * 1000) / commandRate);
      this.throttleTimer = setTimeout(() => {
        this.throttleTimer = undefined;
        this.pump();
      }, wait);
    }
    return false;
  }

  /** `undefined`: a line that was too long (answered 500 in its turn). */
  private enqueue(line: Buffer | undefined): void {
    if (line && this.busy) {
      const verb = verbOf(line);
      if (URGENT.has(verb)) {
        void this.execute(line);
        return;
      }
    }
    this.queue.push(line ?? Buffer.alloc(0));
    if (!this.busy) void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const line = this.queue.shift() as Buffer;
        if (line.length === 0) this.reply(500, 'Command line too long');
        else await this.execute(line);
      }
    } finally {
      this.busy = false;
    }
    if (this.input) this.pump();
  }

  private async execute(line: Buffer): Promise<void> {
    this.lastActivity = Date.now();
    this.armIdle();
    const verb = verbOf(line);
    const space = line.indexOf(0x20);
    const arg = space < 0 ? '' : line.subarray(space + 1).toString('utf8');
    // RNFR names the source for the very next command only.
    const renameFrom = this.renameFrom;
    this.renameFrom = undefined;
    const cmd: Command | undefined = COMMANDS[verb];
    if (!cmd) {
      this.reply(502, `Command not implemented: ${verb.slice(0, 16)}`);
      return;
    }
    if (cmd.needsLogin && !this.user) {
      this.reply(530, 'Please log in with USER and PASS');
      return;
    }
    if (cmd.arg === 'required' && arg.trim() === '') {
      this.reply(501, `${verb} needs an argument`);
      return;
    }
    try {
      await cmd.run(this, arg, { verb, renameFrom });
    } catch (err) {
      if (err instanceof FtpError) this.reply(err.code, err.text);
      else {
        this.host.log(5, 'refused', {
          user: this.userName,
          client: this.client,
          verb,
          path: '',
          detail: (err as Error).message,
        });
        this.reply(451, 'Local error in processing');
      }
    }
  }

  // ---- login and time-outs ----

  loggedIn(user: LoggedIn): void {
    this.user = user;
    this.cwd = '/';
    clearTimeout(this.loginTimer);
    this.loginTimer = undefined;
    this.armIdle();
  }

  private armIdle(): void {
    if (!this.user || this.closed) return;
    clearTimeout(this.idleTimer);
    const idleMs = this.host.settings().idleTimeoutMs;
    this.idleTimer = setTimeout(
      () => {
        this.idleTimer = undefined;
        const quiet = Date.now() - this.lastActivity;
        if (quiet < idleMs) return this.armIdle();
        this.host.log(4, 'idleTimeout', {
          client: this.client,
          user: this.userName,
          seconds: Math.round(idleMs / 1000),
        });
        this.reply(421, 'Idle timeout; closing the connection');
        this.close();
      },
      Math.max(10, idleMs - (Date.now() - this.lastActivity)),
    );
  }

  /** Marks transfer progress: bytes count as activity, so a long transfer is not idle. */
  moved(dir: 'in' | 'out', n: number): void {
    this.lastActivity = Date.now();
    if (dir === 'in') this.bytesIn += n;
    else this.bytesOut += n;
    this.host.countBytes(dir, n);
    const t = this.transfer;
    if (!t) return;
    t.bytes += n;
    const elapsed = this.lastActivity - t.windowAt;
    if (elapsed >= 1000) {
      t.rate = Math.round(((t.bytes - t.windowBytes) * 1000) / elapsed);
      t.windowAt = this.lastActivity;
      t.windowBytes = t.bytes;
    }
  }

  // ---- TLS ----

  /**
   * After `234`: the plaintext read so far is dropped (a command pipelined behind AUTH TLS must
   * not run as if it came over TLS), then the handshake runs on the control connection.
   */
  async startTls(): Promise<void> {
    this.input = undefined;
    this.queue = [];
    this.reader.reset();
    this.raw.removeAllListeners('data');
    this.raw.pause();
    try {
      const up = await serverHandshake(this.raw, this.host.tls, this.host.limits.handshakeMs);
      if (this.closed) {
        up.socket.destroy();
        return;
      }
      this.socket = up.socket;
      this.tlsContext = up.context;
      this.tls = true;
      up.socket.on('error', () => this.close());
      up.socket.on('close', () => this.close());
      this.listen(up.socket);
      this.host.log(5, 'tlsStarted', { client: this.client, protocol: up.socket.getProtocol() ?? '' });
    } catch (err) {
      this.host.log(3, 'tlsFailed', { client: this.client, detail: (err as Error).message });
      this.close();
    }
  }

  // ---- view and end ----

  view(): FtpserverSessionView {
    const t = this.transfer;
    return {
      id: this.id,
      user: this.userName,
      address: this.client,
      since: this.since,
      tls: this.tls,
      protectedData: this.protectedData,
      cwd: this.cwd,
      transfer: t && { verb: t.verb, path: t.path, since: t.since, bytes: t.bytes, rate: t.rate },
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut,
    };
  }

  /** Command input held in memory now (an unfinished line and unread chunk): bounded by design. */
  get bufferedBytes(): number {
    return this.reader.pending + (this.input?.length ?? 0);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Ends the session (idempotent): the transfer is aborted, the passive port freed, timers cleared. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.loginTimer);
    clearTimeout(this.idleTimer);
    clearTimeout(this.throttleTimer);
    const transfer = this.transfer;
    transfer?.abort.abort();
    this.passive?.close();
    this.passive = undefined;
    this.input = undefined;
    this.queue = [];
    // end() lets a last reply (421, 221) out; destroy() follows when the peer does not close.
    this.socket.end();
    const s = this.socket;
    const raw = this.raw;
    setTimeout(() => {
      s.destroy();
      raw.destroy();
    }, 2000).unref();
    // A cut upload is still being kept (written out, renamed into place): the session counts as
    // open until that is done, so its end means its files are settled.
    if (transfer) void transfer.done.then(() => this.onClose(this));
    else this.onClose(this);
  }
}

/** The command word of a line, upper case (ASCII letters only; at most 8 are looked at). */
export function verbOf(line: Buffer): string {
  let end = line.indexOf(0x20);
  if (end < 0) end = line.length;
  return line.subarray(0, Math.min(end, 8)).toString('latin1').toUpperCase();
}

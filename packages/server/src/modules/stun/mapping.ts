import {
  type CodedText,
  fillTemplate,
  STUN_REASONS,
  type StunMappingState,
  type StunProtocol,
  type StunReasonCode,
} from '@lucky/shared';
import { Backoff } from './backoff.js';
import type { MappingHost } from './host.js';

export interface Endpoint {
  address: string;
  port: number;
}

export const endpointText = (e: Endpoint) => `${e.address}:${e.port}`;

export function stunReason(code: StunReasonCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: fillTemplate(STUN_REASONS[code], params) };
}

/** A failure with a reason code the UI translates (and the English detail). */
export class MappingError extends Error {
  constructor(readonly reason: CodedText) {
    super(reason.text);
  }
}

export const errorDetail = (err: unknown): string =>
  err instanceof MappingError ? err.reason.text : err instanceof Error ? err.message : String(err);

/**
 * One protocol's mapping of a rule: open the local side (socket, listener, keep-alive), ask STUN
 * for the public address, then check it every heartbeat. A failed check marks it broken (spec §8
 * "penetration channel malfunction") and it is opened again after the retry interval, doubling
 * while it fails. The public address is reported to the rule on first sight and on every change.
 */
export abstract class Mapping {
  state: StunMappingState = 'starting';
  since = Date.now();
  reason: CodedText | undefined = stunReason('notObtained');
  public: Endpoint | undefined;
  server: string | undefined;
  lastCheck: number | undefined;
  changes = 0;
  protected closed = false;
  private everOpen = false;
  private brokenAt = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by reopen: an attempt still in flight from before does not schedule the next one. */
  private generation = 0;
  private readonly backoff: Backoff;

  constructor(
    readonly protocol: StunProtocol,
    protected readonly host: MappingHost,
    public localPort: number,
  ) {
    this.backoff = new Backoff(host.retrySec());
  }

  abstract get localAddress(): string;
  /** Binds what the mapping needs locally (idempotent: a retry keeps what is still open). */
  protected abstract ensureChannel(): Promise<void>;
  /** Keeps the NAT's entry busy between checks (TCP: the keep-alive connection). */
  protected async keepAlive(): Promise<void> {}
  /** One STUN check over the server list (fail-over inside); rejects when none answered. */
  protected abstract check(): Promise<{ mapped: Endpoint; server: string }>;
  /** Closes everything (at stop). */
  protected abstract closeChannel(): Promise<void>;
  /** Live forwarding figures. */
  abstract figures(): { connections: number; bytesIn: number; bytesOut: number; rateIn: number; rateOut: number };

  start(): void {
    void this.attempt();
  }

  /** Drop the mapping's STUN state and open again now (the "re-open" button). */
  reopen(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.generation++;
    this.backoff.reset();
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.setState('stopped', undefined);
    await this.closeChannel();
  }

  private setState(state: StunMappingState, reason: CodedText | undefined): void {
    if (state !== this.state) this.since = Date.now();
    this.state = state;
    this.reason = reason;
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    const p = this.protocol;
    const gen = this.generation;
    const stale = () => this.closed || gen !== this.generation;
    try {
      await this.ensureChannel();
      if (stale()) return;
      await this.keepAlive();
      const asked = Date.now();
      const { mapped, server } = await this.check();
      if (stale()) return;
      this.mapped(mapped, server, Date.now() - asked);
      this.backoff.reset();
      this.timer = this.host.setTimeout(() => void this.attempt(), this.host.heartbeatMs());
    } catch (err) {
      if (stale()) return;
      const detail = errorDetail(err);
      const wait = this.backoff.next();
      if (this.state !== 'broken') this.brokenAt = Date.now();
      const reason = this.everOpen ? stunReason('channelBroken', { detail }) : stunReason('notPenetrated', { detail });
      if (this.state !== 'broken' || this.reason?.text !== reason.text)
        this.host.line(3, 'lost', { proto: p, detail, seconds: Math.round(wait / 1000) });
      this.setState('broken', reason);
      this.timer = this.host.setTimeout(() => void this.attempt(), wait);
    }
  }

  private mapped(mapped: Endpoint, server: string, ms: number): void {
    const p = this.protocol;
    const previous = this.public;
    const wasBroken = this.state === 'broken';
    this.lastCheck = Date.now();
    this.server = server;
    this.public = mapped;
    this.setState('open', undefined);
    if (wasBroken && this.everOpen)
      this.host.line(4, 'recovered', { proto: p, seconds: Math.round((Date.now() - this.brokenAt) / 1000) });
    this.everOpen = true;
    const now = endpointText(mapped);
    if (!previous) {
      this.host.line(4, 'mapped', { proto: p, public: now, local: `${this.localAddress}:${this.localPort}`, server });
      this.host.addressChanged(this, undefined);
    } else if (endpointText(previous) !== now) {
      this.changes++;
      this.host.line(3, 'addressChanged', { proto: p, previous: endpointText(previous), public: now });
      this.host.addressChanged(this, previous);
    } else {
      this.host.line(5, 'checkOk', { proto: p, public: now, server, ms });
    }
  }
}

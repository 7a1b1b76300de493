// Live state of one task: its domains' sync statuses (with the last known record value, so an
// unchanged IP needs no provider call), the IP and webhook histories and a short log. Kept in
// memory only: after a restart the first check asks the provider once per record.
import {
  DDNS_LIMITS,
  type DdnsDomainState,
  type DdnsLogEntry,
  type DdnsRuntimeCode,
  type DdnsSyncStatus,
  type DdnsTaskState,
  type DdnsWebhookResult,
} from '@lucky/shared';
import type { ParsedDomain } from './domains.js';

const HISTORY = DDNS_LIMITS.history.max;
const LOG_LINES = 100;

export interface DomainRuntime {
  line: string;
  parsed?: ParsedDomain;
  status: DdnsSyncStatus;
  time?: number;
  code?: DdnsRuntimeCode;
  msg: string;
  /** What the record holds as far as we know (set after a write, a same-value answer or a DNS match). */
  value?: string;
  history: { status: DdnsSyncStatus; time: number; msg?: string }[];
}

const iso = (t?: number) => (t === undefined ? undefined : new Date(t).toISOString());

export class TaskState {
  running = false;
  ip = '';
  ipTime?: number;
  ipError?: { code: DdnsRuntimeCode; msg: string };
  lastCheck?: number;
  lastForcedSync?: number;
  domains: DomainRuntime[] = [];
  ipHistory: { ip: string; time: number }[] = [];
  webhookHistory: DdnsWebhookResult[] = [];
  private logLines: DdnsLogEntry[] = [];
  /** Serialises runs of this task (a manual sync waits for the running one). */
  chain: Promise<void> = Promise.resolve();

  /** Takes the task's current domain lines; statuses of lines that stay are kept. */
  setDomains(lines: { line: string; parsed?: ParsedDomain; error?: string }[]): void {
    const old = new Map(this.domains.map((d) => [d.line, d]));
    this.domains = lines.map(({ line, parsed, error }) => {
      const prev = old.get(line);
      if (prev) {
        prev.parsed = parsed;
        return prev;
      }
      const d: DomainRuntime = { line, parsed, status: 'waiting', msg: '', history: [] };
      if (error) Object.assign(d, { status: 'failed', code: 'domainInvalid', msg: error });
      return d;
    });
  }

  /** After an edit nothing known about the records holds any more: the next check asks the provider. */
  invalidate(): void {
    this.lastForcedSync = undefined;
    for (const d of this.domains) d.value = undefined;
  }

  setStatus(d: DomainRuntime, status: DdnsSyncStatus, now: number, msg = '', code?: DdnsRuntimeCode): void {
    const changed = d.status !== status;
    d.status = status;
    d.time = now;
    d.msg = msg;
    d.code = code;
    // One history entry per change (a steady "IP unchanged" every interval would push
    // everything else out); waiting is not an event.
    if (changed && status !== 'waiting') {
      d.history.unshift({ status, time: now, ...(msg ? { msg } : {}) });
      d.history.length = Math.min(d.history.length, HISTORY);
    }
  }

  markAll(status: 'stopped' | 'waiting', now: number): void {
    for (const d of this.domains) {
      if (status === 'waiting' && d.status !== 'stopped') continue;
      if (d.status !== status) this.setStatus(d, status, now);
    }
  }

  addIp(ip: string, now: number): void {
    if (this.ipHistory[0]?.ip === ip) return;
    this.ipHistory.unshift({ ip, time: now });
    this.ipHistory.length = Math.min(this.ipHistory.length, HISTORY);
  }

  addWebhook(r: DdnsWebhookResult): void {
    this.webhookHistory.unshift(r);
    this.webhookHistory.length = Math.min(this.webhookHistory.length, HISTORY);
  }

  log(level: DdnsLogEntry['level'], text: string, now: number): void {
    this.logLines.unshift({ time: new Date(now).toISOString(), level, text });
    this.logLines.length = Math.min(this.logLines.length, LOG_LINES);
  }

  logs(): DdnsLogEntry[] {
    return [...this.logLines];
  }

  view(): DdnsTaskState {
    return {
      running: this.running,
      ip: this.ip,
      ipTime: iso(this.ipTime),
      ...(this.ipError ? { ipError: this.ipError } : {}),
      lastCheck: iso(this.lastCheck),
      lastForcedSync: iso(this.lastForcedSync),
      domains: this.domains.map(domainView),
      ipHistory: this.ipHistory.map((h) => ({ ip: h.ip, time: iso(h.time)! })),
      webhookHistory: [...this.webhookHistory],
    };
  }
}

function domainView(d: DomainRuntime): DdnsDomainState {
  return {
    line: d.line,
    fqdn: d.parsed?.fqdn ?? '',
    sub: d.parsed?.sub ?? '',
    root: d.parsed?.root ?? '',
    params: d.parsed?.params ?? {},
    status: d.status,
    ...(d.time !== undefined ? { time: iso(d.time) } : {}),
    ...(d.code ? { code: d.code } : {}),
    msg: d.msg,
    history: d.history.map((h) => ({ status: h.status, time: iso(h.time)!, ...(h.msg ? { msg: h.msg } : {}) })),
  };
}

// Live state of one task: its domains' sync statuses (with the last known record value, so an
// unchanged IP needs no provider call), the IP history and a short log (the webhook history is
// the runtime's, core/webhook/history.ts). Kept in
// memory only: after a restart the first check asks the provider once per record. Everything it
// says is coded (DDNS_REASONS, DDNS_LOG_MESSAGES) with its English text.
import {
  type CodedText,
  DDNS_LIMITS,
  type DdnsDomainState,
  type DdnsLogEntry,
  type DdnsLogsResponse,
  type DdnsSyncStatus,
  type DdnsTaskState,
  type DdnsWebhookResult,
  ddnsReason,
} from '@lucky/shared';
import { silentLogger } from '../../core/logs/logger.js';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ParsedDomain } from './domains.js';

const HISTORY = DDNS_LIMITS.history.max;

export interface DomainRuntime {
  line: string;
  parsed?: ParsedDomain;
  status: DdnsSyncStatus;
  time?: number;
  reason?: CodedText;
  /** What the record holds as far as we know (set after a write, a same-value answer or a DNS match). */
  value?: string;
  history: { status: DdnsSyncStatus; time: number; reason?: CodedText }[];
}

/** The same reason (code and English text, so the same params): a failure that lasts is news once. */
export const sameReason = (a: CodedText | undefined, b: CodedText | undefined): boolean =>
  a?.text === b?.text && a?.code === b?.code;

const iso = (t?: number) => (t === undefined ? undefined : new Date(t).toISOString());

export class TaskState {
  running = false;
  ip = '';
  ipTime?: number;
  ipError?: CodedText;
  lastCheck?: number;
  lastForcedSync?: number;
  domains: DomainRuntime[] = [];
  ipHistory: { ip: string; time: number }[] = [];
  /** The task's log: the same ring as every rule log, kept only while the module runs. */
  private readonly log = new RuleLog({ level: 4, capacity: DDNS_LIMITS.logLines.max, toConsole: false }, silentLogger);
  /** Serialises runs of this task (a manual sync waits for the running one). */
  chain: Promise<void> = Promise.resolve();

  /** Takes the task's current domain lines; statuses of lines that stay are kept. */
  setDomains(lines: { line: string; parsed?: ParsedDomain }[]): void {
    const old = new Map(this.domains.map((d) => [d.line, d]));
    this.domains = lines.map(({ line, parsed }) => {
      const prev = old.get(line);
      if (prev) {
        prev.parsed = parsed;
        return prev;
      }
      const d: DomainRuntime = { line, parsed, status: 'waiting', history: [] };
      if (!parsed) Object.assign(d, { status: 'failed', reason: ddnsReason('domainInvalid', { line }) });
      return d;
    });
  }

  /** After an edit nothing known about the records holds any more: the next check asks the provider. */
  invalidate(): void {
    this.lastForcedSync = undefined;
    for (const d of this.domains) d.value = undefined;
  }

  setStatus(d: DomainRuntime, status: DdnsSyncStatus, now: number, reason?: CodedText): void {
    const changed = d.status !== status;
    d.status = status;
    d.time = now;
    d.reason = reason;
    // One history entry per change (a steady "IP unchanged" every interval would push
    // everything else out); waiting is not an event.
    if (changed && status !== 'waiting') {
      d.history.unshift({ status, time: now, ...(reason ? { reason } : {}) });
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

  /** A task log line (`ddnsLogLine`): 2 error, 3 warning, 4 info. */
  logLine(level: RuleLogLevel, line: CodedText, now: number): void {
    this.log.coded(level, line.code, line.params ?? {}, line.text, now);
  }

  /** A page of the log, newest first. */
  logs(page = 1, pageSize: number = DDNS_LIMITS.logLines.max): Pick<DdnsLogsResponse, 'total' | 'logs'> {
    const p = this.log.page(page, pageSize, 'newest');
    return { total: p.total, logs: p.logs as DdnsLogEntry[] };
  }

  /** The task's state as the API shows it, with its recent webhook calls. */
  view(webhookHistory: DdnsWebhookResult[] = []): DdnsTaskState {
    return {
      running: this.running,
      ip: this.ip,
      ipTime: iso(this.ipTime),
      ...(this.ipError ? { ipError: this.ipError } : {}),
      lastCheck: iso(this.lastCheck),
      lastForcedSync: iso(this.lastForcedSync),
      domains: this.domains.map(domainView),
      ipHistory: this.ipHistory.map((h) => ({ ip: h.ip, time: iso(h.time)! })),
      webhookHistory,
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
    ...(d.reason ? { reason: d.reason } : {}),
    history: d.history.map((h) => ({
      status: h.status,
      time: iso(h.time)!,
      ...(h.reason ? { reason: h.reason } : {}),
    })),
  };
}

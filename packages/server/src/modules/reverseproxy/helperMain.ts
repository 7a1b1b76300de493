// A web service helper process: serves the connections the server process hands it
// (helperPool.ts) with the same listener and handlers, so a busy site can use more than one
// CPU core. It holds no configuration of its own: rules and certificates arrive over IPC,
// its log lines go back to the rule's logs in the server process.
import type net from 'node:net';
import type { ReverseproxyRule } from '@lucky/shared';
import { parseCertPair } from '../../core/certs/parse.js';
import { CertResolver, type CertSource } from '../../core/certs/resolver.js';
import type { LoadedCert } from '../../core/certs/store.js';
import { setAdminRelay } from '../../core/http/adminRelay.js';
import type { RuleLogLevel } from '../../core/logs/ruleLog.js';
import { ConnectionGuard, defaultLimits, reset } from '../../core/net/connGuard.js';
import { isLanAddress } from '../../core/net/lan.js';
import { watchLists } from '../../core/safe/recheck.js';
import { HttpListener } from '../../core/serve/listener.js';
import type { SiteLog, SiteLogs } from './accessLog.js';
import { createHandlers, type RuleState } from './handler.js';
import type { FromHelper, HelperTraffic, RelayedLine, ToHelper } from './helperProtocol.js';
import { Backends } from './proxy.js';
import { RouteTable } from './router.js';
import { listenOptions } from './ruleOptions.js';

const REPORT_EVERY_MS = 100;
/** Lines kept between two reports at most; a flood beyond that is counted, not queued. */
const MAX_PENDING_LINES = 20_000;

const send = (m: FromHelper) => process.send?.(m);

let pending: RelayedLine[] = [];
let dropped = 0;
/** Client addresses of wrong basic-auth credentials since the last report (bounded like the lines). */
let authFailures: string[] = [];

/** Writes a site's lines into the next report, at the level the sub rule asks for. */
class RelayLog implements SiteLog {
  constructor(
    private readonly ruleKey: string,
    private readonly siteKey: string,
    private readonly level: number,
    private readonly keeps: boolean,
  ) {}
  wants(level: RuleLogLevel): boolean {
    return this.keeps && level <= this.level;
  }
  private add(level: RuleLogLevel, text: string, code?: string, params?: Record<string, unknown>): void {
    if (!this.wants(level)) return;
    if (pending.length >= MAX_PENDING_LINES) dropped++;
    else if (code === undefined) pending.push([this.ruleKey, this.siteKey, level, text, Date.now()]);
    else pending.push([this.ruleKey, this.siteKey, level, text, Date.now(), code, params]);
  }
  coded(level: RuleLogLevel, code: string, params: Record<string, unknown>, text: string) {
    this.add(level, text, code, params);
  }
  error(text: string) {
    this.add(2, text);
  }
  warn(text: string) {
    this.add(3, text);
  }
  info(text: string) {
    this.add(4, text);
  }
  debug(text: string) {
    this.add(5, text);
  }
}

function relayLogs(rule: ReverseproxyRule): SiteLogs {
  const logs = new Map<string, SiteLog>();
  for (const [key, s] of [['default', rule.defaultRule] as const, ...rule.subRules.map((x) => [x.key, x] as const)])
    logs.set(key, new RelayLog(rule.key, key, s.log.level, s.log.capacity > 0 || s.log.toConsole));
  return { get: (k) => logs.get(k) };
}

/** The certificates as the server process last sent them, parsed here. */
class CertCopy implements CertSource {
  private certs: LoadedCert[] = [];
  private listeners = new Set<() => void>();
  set(records: ToHelper & { t: 'certs' }): void {
    this.certs = [];
    for (const record of records.certs) {
      try {
        const parsed = parseCertPair(record.certPem, record.keyPem);
        this.certs.push({ record, parsed, leaf: parsed.chain[0] });
      } catch {
        // The server process parsed it already; a pair that fails here is skipped as there.
      }
    }
    for (const fn of this.listeners) fn();
  }
  loaded(): LoadedCert[] {
    return this.certs;
  }
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

interface Served {
  state: RuleState;
  listener: HttpListener;
  requests: () => number;
}

const certCopy = new CertCopy();
/** The ACME HTTP-01 board as the server process last sent it. */
let challenges = new Map<string, string>();
const resolver = new CertResolver(certCopy);
const backends = new Backends();
const rules = new Map<string, Served>();
/**
 * The caps of this process's share of the connections (the worker checked its own caps before
 * handing each over). Default settings: a helper is not sent the base settings; its refusals
 * are counted, not logged.
 */
const guard = new ConnectionGuard('web service helper', defaultLimits, isLanAddress, () => undefined);

/**
 * The security lists live in the server process: on a change it asks for the addresses open here
 * (`recheck` → `peers`) and names those it refuses now (`refused`); their connections are reset
 * here, in slices as in the server process.
 */
let refusedHere = new Set<string>();
const lists = watchLists(() => () => undefined, {
  open: () => guard.sockets(),
  ipOf: (s) => (s.destroyed ? undefined : s.remoteAddress),
  admits: (ip) => !refusedHere.has(ip),
  close: (s) => reset(s),
});

function peers(): string[] {
  const ips = new Set<string>();
  for (const s of guard.sockets()) if (!s.destroyed && s.remoteAddress) ips.add(s.remoteAddress);
  return [...ips];
}

function setRule(rule: ReverseproxyRule): void {
  const state: RuleState = { table: new RouteTable(rule), logs: relayLogs(rule), backends };
  const served = rules.get(rule.key);
  if (served) {
    served.state = state;
    served.listener.configure(listenOptions(rule));
    return;
  }
  const next = { state } as Served;
  // No `admits`: the server process asked the security lists before it handed a connection over.
  const handlers = createHandlers(
    () => next.state,
    {
      authFailed: (ip) => {
        if (authFailures.length < MAX_PENDING_LINES) authFailures.push(ip);
      },
    },
    (token) => challenges.get(token),
  );
  next.requests = handlers.requestCount;
  next.listener = new HttpListener(handlers, resolver, listenOptions(rule), undefined, guard);
  rules.set(rule.key, next);
}

function connections(): number {
  let n = 0;
  for (const r of rules.values()) n += r.listener.connectionCount;
  return n;
}

let lastConnections = -1;
let lastTraffic = '';
const reporter = setInterval(() => {
  const n = connections();
  const traffic: Record<string, HelperTraffic> = {};
  for (const [key, r] of rules) {
    const t = r.listener.traffic();
    traffic[key] = [t.bytesIn, t.bytesOut, r.requests(), t.connections];
  }
  const trafficText = JSON.stringify(traffic);
  if (!pending.length && !dropped && !authFailures.length && n === lastConnections && trafficText === lastTraffic)
    return;
  if (dropped) pending.push(['', '', 3, `helper ${process.pid}: ${dropped} log lines dropped (too many)`, Date.now()]);
  send({ t: 'report', lines: pending, connections: n, traffic, ...(authFailures.length ? { authFailures } : {}) });
  pending = [];
  authFailures = [];
  dropped = 0;
  lastConnections = n;
  lastTraffic = trafficText;
}, REPORT_EVERY_MS);

async function exit(): Promise<void> {
  clearInterval(reporter);
  await Promise.all([...rules.values()].map((r) => r.listener.close()));
  await backends.close();
  process.exit(0);
}

process.on('message', (m: ToHelper, handle?: net.Socket) => {
  switch (m.t) {
    case 'relay':
      setAdminRelay({ port: m.port, secret: m.secret });
      break;
    case 'certs':
      certCopy.set(m);
      break;
    case 'challenges':
      challenges = new Map(m.entries);
      break;
    case 'rule':
      setRule(m.rule);
      break;
    case 'drop': {
      const r = rules.get(m.key);
      rules.delete(m.key);
      void r?.listener.close();
      break;
    }
    case 'conn': {
      if (!handle) break;
      const r = rules.get(m.key);
      if (r) r.listener.accept(handle);
      else handle.destroy();
      break;
    }
    case 'recheck':
      send({ t: 'peers', ips: peers() });
      break;
    case 'refused':
      refusedHere = new Set(m.ips);
      lists.recheck();
      break;
    case 'exit':
      void exit();
      break;
  }
});
// The server process went away (crash, restart): nothing is left to serve for.
process.on('disconnect', () => void exit());
send({ t: 'ready' });

import { X509Certificate } from 'node:crypto';
import {
  ACME_CA_INFO,
  ACME_REVOKE_REASONS,
  type AcmeAccount,
  type AcmeCertificate,
  type AcmeCertificateStatus,
  type AcmeConfig,
  type AcmeLogCode,
  type AcmeRevokeReason,
  acmeLogText,
} from '@lucky/shared';
import { CertError } from '../../core/certs/parse.js';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { HttpClients } from '../../core/outbound/client.js';
import { callWebhook } from '../../core/webhook/call.js';
import { callView, WebhookHistory } from '../../core/webhook/history.js';
import { scrubDeep, scrubList, webhookSecrets } from '../../core/webhook/secrets.js';
import type { CaKit, CaSession } from './ca.js';
import { acmeWebhookVars, exportFiles, runCommand } from './deliver.js';
import { ensureAccount, runOrder, type Step } from './order.js';
import { type AcmeReason, detailOf, OrderFailure, reason } from './reasons.js';
import { backoffMs, covers, nextTry, pickInWindow } from './schedule.js';
import { AcmeStateFile, type CertState, statusFields } from './state.js';

const closeAll = (sessions: CaSession[]) => Promise.all(sessions.map((s) => s.close().catch(() => undefined)));

/** Orders running at once (each certificate has at most one). */
export const MAX_PARALLEL_ORDERS = 2;
/** The scheduler looks at every certificate this often (and at start, reload, after each order). */
const TICK_MS = 3 * 60_000;
/** Ask ARI again after this long when the CA gave no Retry-After. */
const ARI_RECHECK_MS = 6 * 3600_000;
const LOG_CAPACITY = 1000;
const DAY = 86_400_000;

export interface AcmeRuntimeOptions {
  /** The RFC 8555 client (client/); tests may give their own. */
  kit: CaKit;
  /** The clock the scheduler decides by (tests move it to make certificates due). */
  now?: () => number;
}

interface Running {
  abort: AbortController;
  step: Step;
  done: Promise<void>;
}

/**
 * The running module: a scheduler over the certificates (due → order → store, export, command,
 * webhook; failures back off), one order per certificate and at most two at once, the state of
 * each kept in `<configDir>/acme/state.json`.
 */
export class AcmeRuntime implements ModuleRuntime<AcmeConfig> {
  private config!: AcmeConfig;
  readonly log: RuleLog;
  readonly webhooks = new WebhookHistory();
  private readonly state: AcmeStateFile;
  private readonly running = new Map<string, Running>();
  private readonly ariAsking = new Set<string>();
  private registering = new Map<string, Promise<string>>();
  private http = new HttpClients();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly opts: AcmeRuntimeOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.log = new RuleLog({ level: 4, capacity: LOG_CAPACITY, toConsole: true }, ctx.log);
    this.state = new AcmeStateFile(`${ctx.configDir}/acme`);
  }

  async start(config: AcmeConfig): Promise<void> {
    this.config = config;
    await this.state.load();
    await this.state.retain(new Set(config.certificates.map((c) => c.key)));
    this.ctx.setInterval(() => this.tick(), TICK_MS);
    this.tick();
  }

  async reload(next: AcmeConfig, prev: AcmeConfig): Promise<void> {
    this.config = next;
    const keys = new Set(next.certificates.map((c) => c.key));
    for (const c of prev.certificates) {
      const now = next.certificates.find((x) => x.key === c.key);
      // A removed or switched-off certificate's order stops; a removed one leaves the store too.
      if (!now?.enabled) this.running.get(c.key)?.abort.abort();
      if (!now) await this.ctx.certStore.remove(c.key).catch(() => false);
      // A failing certificate the admin changed (a fixed DNS secret, another port) tries again now,
      // not after the back-off its old settings earned.
      else if (this.state.get(c.key).failures > 0 && JSON.stringify(now) !== JSON.stringify(c))
        await this.state.update(c.key, (st) => ({ ...st, failures: 0, nextRenewalAt: undefined }));
    }
    this.webhooks.keep(keys);
    await this.state.retain(keys);
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const r of this.running.values()) r.abort.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
    await this.http.close();
  }

  status() {
    const certs = this.config?.certificates ?? [];
    // On with no certificate switched on, it looks after nothing: `stopped`, never "running".
    const state = certs.some((c) => c.enabled) ? undefined : ('stopped' as const);
    return { ...(state ? { state } : {}), details: { certificates: certs.length, ordering: this.running.size } };
  }

  /** The status view of a certificate. */
  view(cert: AcmeCertificate): AcmeCertificateStatus {
    const s = this.state.get(cert.key);
    const run = this.running.get(cert.key);
    const out: AcmeCertificateStatus = { state: this.stateOf(cert, s), ...statusFields(s) };
    const next = nextTry(cert, s);
    if (cert.enabled && !s.revoked) out.nextRenewalAt = new Date(Math.max(next, 0) || this.now()).toISOString();
    else delete out.nextRenewalAt;
    const storeKey = this.ctx.certStore.keyOf(cert.key);
    if (storeKey) out.storeKey = storeKey;
    if (run) out.step = run.step;
    return out;
  }

  private stateOf(cert: AcmeCertificate, s: CertState): AcmeCertificateStatus['state'] {
    if (!cert.enabled) return 'disabled';
    const issued = !!s.notAfter && !s.revoked;
    if (this.running.has(cert.key)) return issued ? 'renewing' : 'ordering';
    if (s.revoked) return 'revoked';
    if (s.failures > 0) return 'failing';
    if (s.notAfter && Date.parse(s.notAfter) < this.now()) return 'expired';
    return issued ? 'valid' : 'pending';
  }

  /** Issue or renew now; 'busy' while the certificate's order runs. */
  issueNow(key: string): 'started' | 'busy' | 'notFound' {
    const cert = this.config.certificates.find((c) => c.key === key);
    if (!cert) return 'notFound';
    if (this.running.has(key)) return 'busy';
    this.begin(cert);
    return 'started';
  }

  /** Waits for the certificate's running order, if any (tests, revoke after issue). */
  async settled(key: string): Promise<void> {
    await this.running.get(key)?.done;
  }

  /** Revokes the issued certificate at the CA, marks it revoked and removes it from the store. */
  async revoke(key: string, why: AcmeRevokeReason): Promise<AcmeReason | undefined> {
    const cert = this.config.certificates.find((c) => c.key === key);
    const pem = this.ctx.certStore.certPem(key);
    if (!cert || !pem) return reason('revokeFailed', { detail: 'not issued' });
    this.running.get(key)?.abort.abort();
    await this.settled(key);
    const opened: CaSession[] = [];
    try {
      const account = this.accountOf(cert);
      const session = await this.sessionFor(account, this.ctx.signal, opened);
      await session.revoke(pem, ACME_REVOKE_REASONS[why]);
    } catch (err) {
      const r =
        err instanceof OrderFailure
          ? err.reason
          : (this.opts.kit.reasonOf(err, 'revoke') ?? reason('revokeFailed', { detail: detailOf(err) }));
      const out = r.code === 'caProblem' ? reason('revokeFailed', { detail: r.params?.detail ?? r.text }) : r;
      this.line(2, 'failed', { cert: cert.name, reason: out.text });
      return out;
    } finally {
      await closeAll(opened);
    }
    await this.ctx.certStore.remove(key);
    await this.state.update(key, (s) => ({
      ...s,
      revoked: true,
      failures: 0,
      lastError: undefined,
      ariPick: undefined,
    }));
    this.line(3, 'revoked', { cert: cert.name, reason: why });
    return undefined;
  }

  /** The scheduler: starts what is due, warns of coming expiry, asks ARI; then arms the next look. */
  tick(): void {
    if (this.stopped || !this.config) return;
    const now = this.now();
    let soonest = now + TICK_MS;
    for (const cert of this.config.certificates) {
      if (!cert.enabled || this.running.has(cert.key)) continue;
      const s = this.state.get(cert.key);
      if (s.revoked && covers(cert, { ...s, revoked: false })) continue;
      this.warnExpiry(cert, s, now);
      if (cert.useAri && covers(cert, s) && (!s.ariCheckAt || Date.parse(s.ariCheckAt) <= now)) void this.askAri(cert);
      const at = nextTry(cert, s);
      if (at <= now) {
        if (this.running.size < MAX_PARALLEL_ORDERS) this.begin(cert);
      } else soonest = Math.min(soonest, at);
    }
    // One timer of our own, re-armed at each look (cleared in stop()): the supervisor's timers are
    // kept until they fire, which a re-armed one never does. A test's moved clock calls tick() itself.
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), Math.max(soonest - now, 1000));
    this.timer.unref();
  }

  private begin(cert: AcmeCertificate): void {
    const abort = new AbortController();
    const onStop = () => abort.abort();
    this.ctx.signal.addEventListener('abort', onStop, { once: true });
    const run: Running = { abort, step: 'account', done: Promise.resolve() };
    this.running.set(cert.key, run);
    run.done = this.order(cert, run).finally(() => {
      this.ctx.signal.removeEventListener('abort', onStop);
      this.running.delete(cert.key);
      // A freed slot: what else is due may start.
      if (!this.stopped) this.tick();
    });
  }

  private accountOf(cert: AcmeCertificate): AcmeAccount {
    const account = this.config.accounts.find((a) => a.key === cert.account);
    if (!account) throw new OrderFailure(reason('accountMissing', {}));
    return account;
  }

  /** A session of the account, registered at the CA first when it is not yet (one registration at a time). */
  private async sessionFor(
    account: AcmeAccount,
    signal: AbortSignal,
    opened: CaSession[],
    step?: (s: Step) => void,
  ): Promise<CaSession> {
    const make = (accountUrl?: string) => {
      const session = this.opts.kit.session({
        directoryUrl: account.ca === 'custom' ? account.directoryUrl : ACME_CA_INFO[account.ca].directory,
        accountKeyPem: account.accountKeyPem,
        ...(accountUrl ? { accountUrl } : {}),
        ...(account.caCertPem ? { caCertPem: account.caCertPem } : {}),
        timeoutMs: this.config.httpTimeout * 1000,
        signal,
      });
      opened.push(session);
      return session;
    };
    if (!account.accountKeyPem) throw new OrderFailure(reason('accountMissing', {}));
    if (account.accountUrl) return make(account.accountUrl);
    let pending = this.registering.get(account.key);
    if (!pending) {
      pending = ensureAccount(account, { session: make(), kit: this.opts.kit, signal, step: step ?? (() => {}) });
      this.registering.set(account.key, pending);
      void pending.then(
        (url) => this.saveAccountUrl(account, url),
        () => this.registering.delete(account.key),
      );
    }
    return make(await pending);
  }

  private async saveAccountUrl(account: AcmeAccount, url: string): Promise<void> {
    const ca = account.ca === 'custom' ? account.directoryUrl : account.ca;
    this.line(4, 'accountRegistered', { account: account.name, ca });
    try {
      const accounts = this.config.accounts.map((a) => (a.key === account.key ? { ...a, accountUrl: url } : a));
      await this.ctx.saveConfig({ ...this.config, accounts });
    } finally {
      this.registering.delete(account.key);
    }
  }

  private async forgetAccountUrl(key: string): Promise<void> {
    const account = this.config.accounts.find((a) => a.key === key);
    if (!account?.accountUrl) return;
    const accounts = this.config.accounts.map((a) => (a.key === key ? { ...a, accountUrl: '' } : a));
    await this.ctx.saveConfig({ ...this.config, accounts }).catch(() => undefined);
  }

  private async order(cert: AcmeCertificate, run: Running): Promise<void> {
    const before = this.state.get(cert.key);
    const renewal = covers(cert, before);
    const now = () => new Date(this.now()).toISOString();
    await this.state.update(cert.key, (s) => ({ ...s, lastAttemptAt: now() }));
    const signal = run.abort.signal;
    const opened: CaSession[] = [];
    try {
      const account = this.accountOf(cert);
      const session = await this.sessionFor(account, signal, opened, (s) => {
        run.step = s;
      });
      this.line(4, 'orderStarted', { names: cert.names.join(', '), type: cert.challenge });
      const oldPem = renewal ? this.ctx.certStore.certPem(cert.key) : undefined;
      let replaces: string | undefined;
      if (oldPem && cert.useAri && before.ariWindow) {
        try {
          replaces = session.certId(oldPem);
        } catch {
          // Not an id the client can make (no AKI): order without `replaces`.
        }
      }
      const issued = await runOrder(cert, {
        ctx: this.ctx,
        kit: this.opts.kit,
        session,
        http: this.http,
        timeoutMs: this.config.httpTimeout * 1000,
        signal,
        sleep: (ms) => this.sleep(ms, signal),
        step: (s) => {
          run.step = s;
        },
        log: (code, params) => this.line(4, code, params),
        ...(replaces ? { replaces } : {}),
      });
      run.step = 'store';
      let leaf: X509Certificate;
      try {
        leaf = new X509Certificate(issued.fullchain);
        await this.ctx.certStore.put({
          item: cert.key,
          certPem: issued.fullchain,
          keyPem: issued.keyPem,
          remark: `ACME: ${cert.name}`,
        });
      } catch (err) {
        throw new OrderFailure(
          reason('storeFailed', { detail: err instanceof CertError ? err.message : detailOf(err) }),
        );
      }
      const notAfter = new Date(leaf.validTo).toISOString();
      await this.state.update(cert.key, (s) => ({
        ...s,
        notBefore: new Date(leaf.validFrom).toISOString(),
        notAfter,
        serial: leaf.serialNumber.toLowerCase(),
        issuer: leaf.issuer.replace(/\n/g, ', '),
        names: [...cert.names],
        lastIssuedAt: now(),
        revoked: false,
        failures: 0,
        lastError: undefined,
        ariWindow: undefined,
        ariPick: undefined,
        ariCheckAt: undefined,
        nextRenewalAt: undefined,
        warnedFor: undefined,
      }));
      this.line(4, renewal ? 'renewed' : 'issued', { cert: cert.name, names: cert.names.join(', '), notAfter });
      await this.afterIssue(cert, issued.fullchain, issued.keyPem, notAfter, signal);
      if (cert.useAri) await this.askAri(cert);
    } catch (err) {
      const r = this.scrub(
        err instanceof OrderFailure
          ? err.reason
          : signal.aborted
            ? reason('cancelled', {})
            : reason('caProblem', { type: run.step, detail: detailOf(err) }),
      );
      const retryAfter = err instanceof OrderFailure ? err.retryAfterMs : 0;
      if (r.code === 'cancelled') {
        await this.state.update(cert.key, (s) => ({ ...s, lastError: r }));
        return;
      }
      // The CA no longer knows the account (deactivated, a reset test CA): register anew next time.
      if (r.code === 'accountMissing') await this.forgetAccountUrl(cert.account);
      const failures = before.failures + 1;
      const at = new Date(this.now() + backoffMs(failures, retryAfter)).toISOString();
      await this.state.update(cert.key, (s) => ({ ...s, failures, lastError: r, nextRenewalAt: at }));
      this.line(2, 'failed', { cert: cert.name, reason: r.text });
      this.line(4, 'retryAt', { cert: cert.name, at });
      await this.webhook(cert, 'failure', before.notAfter ?? '', r.text, signal);
    } finally {
      await closeAll(opened);
    }
  }

  /** Export, command and webhook of a fresh certificate; their failures are recorded, not retried. */
  private async afterIssue(
    cert: AcmeCertificate,
    fullchain: string,
    keyPem: string,
    notAfter: string,
    signal: AbortSignal,
  ): Promise<void> {
    const problem = async (found: AcmeReason) => {
      const r = this.scrub(found);
      await this.state.update(cert.key, (s) => ({ ...s, lastError: r }));
      this.line(2, 'failed', { cert: cert.name, reason: r.text });
    };
    if (cert.export.enabled) {
      try {
        const dir = await exportFiles(cert, fullchain, keyPem);
        this.line(4, 'exported', { cert: cert.name, path: dir });
      } catch (err) {
        await problem(
          err instanceof OrderFailure
            ? err.reason
            : reason('exportFailed', { path: cert.export.dir, detail: detailOf(err) }),
        );
      }
    }
    if (cert.command.trim()) {
      const r = await runCommand(cert, signal);
      this.line(r.code === 0 ? 4 : 3, 'commandRan', { cert: cert.name, code: r.code, output: r.output });
      if (r.code !== 0)
        await problem(
          reason('commandFailed', {
            code: r.code,
            detail: r.timedOut ? `timed out after ${cert.commandTimeout} s` : r.output,
          }),
        );
    }
    await this.webhook(cert, 'success', notAfter, '', signal);
  }

  private async webhook(
    cert: AcmeCertificate,
    event: 'success' | 'failure' | 'expiring',
    notAfter: string,
    why: string,
    signal: AbortSignal,
  ): Promise<void> {
    if (!cert.webhook.enabled) return;
    const outcome = await callWebhook(cert.webhook, acmeWebhookVars(cert, event, notAfter, why), {
      http: this.http,
      signal,
      delay: (ms) => this.sleep(ms, signal),
    });
    this.webhooks.add(cert.key, callView(outcome, new Date(this.now())));
  }

  /** The expiry warning: once per issued certificate, when fewer than expiryWarnDays are left. */
  private warnExpiry(cert: AcmeCertificate, s: CertState, now: number): void {
    if (!s.notAfter || s.revoked || s.warnedFor === s.notAfter) return;
    const left = Date.parse(s.notAfter) - now;
    if (left > this.config.expiryWarnDays * DAY) return;
    const days = Math.max(Math.floor(left / DAY), 0);
    const notAfter = s.notAfter;
    void this.state.update(cert.key, (x) => ({ ...x, warnedFor: notAfter }));
    this.line(3, 'expiringSoon', { cert: cert.name, days });
    void this.webhook(cert, 'expiring', notAfter, `expires in ${days} days`, this.ctx.signal);
  }

  /** Asks the CA's renewalInfo (RFC 9773) and picks a time in its window; errors wait for the next check. */
  private async askAri(cert: AcmeCertificate): Promise<void> {
    if (this.ariAsking.has(cert.key)) return;
    const pem = this.ctx.certStore.certPem(cert.key);
    if (!pem) return;
    this.ariAsking.add(cert.key);
    const opened: CaSession[] = [];
    try {
      const session = await this.sessionFor(this.accountOf(cert), this.ctx.signal, opened);
      const info = await session.renewalInfo(pem);
      const checkAt = new Date(this.now() + (info?.retryAfter ? info.retryAfter * 1000 : ARI_RECHECK_MS)).toISOString();
      await this.state.update(cert.key, (s) => {
        if (!info) return { ...s, ariCheckAt: checkAt, ariWindow: undefined, ariPick: undefined };
        const window = {
          start: info.start,
          end: info.end,
          ...(info.explanationUrl ? { explanationUrl: info.explanationUrl } : {}),
        };
        const same = s.ariWindow?.start === window.start && s.ariWindow?.end === window.end;
        if (!same) this.line(4, 'ariWindow', { cert: cert.name, start: window.start, end: window.end });
        return {
          ...s,
          ariCheckAt: checkAt,
          ariWindow: window,
          ariPick: same && s.ariPick ? s.ariPick : pickInWindow(window),
        };
      });
    } catch {
      await this.state.update(cert.key, (s) => ({
        ...s,
        ariCheckAt: new Date(this.now() + ARI_RECHECK_MS).toISOString(),
      }));
    } finally {
      this.ariAsking.delete(cert.key);
      await closeAll(opened);
    }
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new OrderFailure(reason('cancelled', {})));
      const t = this.ctx.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(new OrderFailure(reason('cancelled', {})));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private line(level: RuleLogLevel, code: AcmeLogCode, params: Record<string, unknown>): void {
    const p = this.scrub(params);
    this.log.coded(level, code, p, acmeLogText(code, p));
  }

  /**
   * Reasons and log lines quote what providers, CAs and commands answered, which may echo a
   * credential: every secret of the slice is masked in them before they are kept.
   */
  private scrub<T>(value: T): T {
    const c = this.config;
    const secrets = [
      ...c.accounts.map((a) => a.eab.hmacKey),
      ...c.certificates.flatMap((x) => [x.dns.secret, ...webhookSecrets(x.webhook)]),
    ].filter((v) => v.length >= 4);
    return scrubDeep(value, scrubList(secrets));
  }
}

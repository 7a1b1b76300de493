// One check of one task (the ancestor's algorithm, lucky-reference §3.1, minus its bugs):
// get the IP → nothing to do for records known to hold it → otherwise optional DNS check →
// provider find / create / update / no-op → statuses, histories, webhook. Every failure stays
// inside this task and its domains.
import {
  type CodedText,
  type DdnsTask,
  type DdnsWebhook,
  type DdnsWebhookResult,
  ddnsLogLine,
  ddnsReason,
} from '@lucky/shared';
import type { DnsService } from '../../core/dns/index.js';
import type { Logger } from '../../core/logs/logger.js';
import type { NetInterfaces } from '../../core/net/interfaces.js';
import type { HttpClients } from '../../core/outbound/client.js';
import { callWebhook } from '../../core/webhook/call.js';
import { callView, type WebhookHistory } from '../../core/webhook/history.js';
import { CallbackRefused, callbackProvider } from './callback.js';
import { parseDomains } from './domains.js';
import { canonicalIp, getTaskIp, type IpResult } from './ipSources/index.js';
import { clientOptions, type ProviderEnv, proxyOf, ttlFor } from './providerContext.js';
import { resolveOnServers } from './resolverCheck.js';
import { scrubbingLogger, secretsOf } from './secrets.js';
import { type DomainRuntime, sameReason, type TaskState } from './state.js';
import { webhookVars } from './webhookVars.js';

export interface SyncEnv {
  http: HttpClients;
  /** The core's DNS providers (`ctx.dns`). */
  dns: DnsService;
  log: Logger;
  suffixes: Set<string>;
  globalWebhook: DdnsWebhook;
  /** Each task's recent webhook calls (by task key). */
  webhooks: WebhookHistory<DdnsWebhookResult>;
  endpoints?: ProviderEnv['endpoints'];
  signal?: AbortSignal;
  /** Shared by the tasks of one round (an echo URL answers once per round). */
  ipCache?: Map<string, Promise<IpResult>>;
  interfaces?: NetInterfaces;
  now(): number;
  delay(ms: number): Promise<void>;
  /** Counts provider calls (the benchmark reads it). */
  onProviderCall?: (task: DdnsTask, fqdn: string) => void;
}

export interface SyncOptions {
  /** Ask the provider for every record, whatever is known (manual sync, force interval). */
  forced?: boolean;
  /** The address to use instead of the task's IP source, and the module that gave it (`syncNow`). */
  address?: { ip: string; module: string };
}

const IN_STEP = new Set(['ipSame', 'providerSame', 'dnsSame', 'ipUnchanged', 'succeeded']);

/** Puts the task's domain lines (parsed) into its state; invalid lines fail on their own. */
export function refreshDomains(task: DdnsTask, state: TaskState, suffixes: Set<string>): void {
  state.setDomains(
    parseDomains(task.domains, suffixes).map((p) =>
      p.ok ? { line: p.domain.line, parsed: p.domain } : { line: p.line },
    ),
  );
}

async function syncDomain(
  task: DdnsTask,
  state: TaskState,
  d: DomainRuntime,
  ip: string,
  ipChanged: boolean,
  forced: boolean,
  env: SyncEnv,
): Promise<'success' | 'failed' | 'quiet'> {
  const now = env.now;
  const p = d.parsed;
  // A line that is not a name keeps its "failed" status; it is not news every round.
  if (!p) return 'quiet';
  if (!forced && !ipChanged && IN_STEP.has(d.status) && d.value === ip) {
    state.setStatus(d, 'ipUnchanged', now());
    return 'quiet';
  }
  if (!forced && d.value === ip) {
    state.setStatus(d, 'ipSame', now(), ddnsReason('recordHolds', { fqdn: p.fqdn, ip }));
    return 'quiet';
  }
  const family = task.recordType === 'A' ? 4 : 6;
  if (task.resolverCheck) {
    const a = await resolveOnServers(p.fqdn, family, task.dnsServers, task.httpTimeout * 1000);
    if (a.addresses.includes(ip)) {
      d.value = ip;
      state.setStatus(d, 'dnsSame', now(), ddnsReason('dnsAnswers', { server: a.server, ip }));
      return 'quiet';
    }
    if (a.error) state.logLine(3, ddnsLogLine('dnsCheckFailed', { fqdn: p.fqdn, detail: a.error }), now());
  }
  const kind = task.dns.provider;
  if (kind !== 'callback' && !env.dns.capabilities(kind)) {
    state.setStatus(d, 'failed', now(), ddnsReason('unknownProvider', { provider: kind }));
    return 'failed';
  }
  env.onProviderCall?.(task, p.fqdn);
  try {
    const options = clientOptions(task, {
      http: env.http,
      endpoints: env.endpoints,
      signal: env.signal,
      now: () => new Date(now()),
    });
    const provider = kind === 'callback' ? callbackProvider(task.dns, options) : env.dns.create(task.dns, options);
    const outcome = await provider.setAddress(
      { fqdn: p.fqdn, sub: p.sub, root: p.root, params: p.params },
      task.recordType,
      ip,
      ttlFor(task),
    );
    d.value = ip;
    if (outcome === 'same') {
      state.setStatus(d, 'providerSame', now(), ddnsReason('providerHolds', { ip }));
      return 'quiet';
    }
    const done = { type: task.recordType, ip };
    state.setStatus(d, 'succeeded', now(), ddnsReason(outcome === 'created' ? 'recordCreated' : 'recordUpdated', done));
    const line = ddnsLogLine(outcome === 'created' ? 'recordCreated' : 'recordUpdated', { fqdn: p.fqdn, ...done });
    state.logLine(4, line, now());
    env.log.info(line.text);
    return 'success';
  } catch (err) {
    // The provider's own words (or the network's) follow the topic; the callback's refusal is coded.
    const reason =
      err instanceof CallbackRefused
        ? ddnsReason('providerError', { cause: err.reason })
        : ddnsReason('providerError', { detail: (err as Error).message });
    // A failure is news once (program log, webhook), not again every round while it lasts.
    const repeated = d.status === 'failed' && sameReason(d.reason, reason);
    state.setStatus(d, 'failed', now(), reason);
    const line = ddnsLogLine('updateFailed', { fqdn: p.fqdn, cause: reason });
    state.logLine(2, line, now());
    if (repeated) return 'quiet';
    env.log.warn(line.text);
    return 'failed';
  }
}

/** One check of one task. Never throws: problems become statuses. */
export async function syncTask(
  task: DdnsTask,
  state: TaskState,
  baseEnv: SyncEnv,
  opts: SyncOptions = {},
): Promise<void> {
  // Program-log lines quote URLs and provider answers: the task's secrets are masked there.
  const env = { ...baseEnv, log: scrubbingLogger(baseEnv.log, secretsOf(task, baseEnv.globalWebhook)) };
  const started = env.now();
  state.running = true;
  try {
    refreshDomains(task, state, env.suffixes);
    const family = task.recordType === 'A' ? 4 : 6;
    const given = opts.address;
    const got: IpResult = given
      ? { ok: true, ip: canonicalIp(given.ip), from: given.module }
      : await getTaskIp(task.ipSource, family, {
          http: env.http,
          timeoutMs: task.httpTimeout * 1000,
          signal: env.signal,
          cache: env.ipCache,
          interfaces: env.interfaces,
          now: env.now,
        });
    state.lastCheck = env.now();
    if (!got.ok) {
      const repeated = sameReason(state.ipError, got.reason);
      state.ipError = got.reason;
      for (const d of state.domains) if (d.parsed) state.setStatus(d, 'paused', env.now(), got.reason);
      const line = ddnsLogLine('ipFailed', { cause: got.reason });
      state.logLine(2, line, env.now());
      if (repeated) return;
      env.log.warn(`task ${task.name || task.key}: ${line.text}`);
      await maybeWebhook(
        task,
        state,
        env,
        '',
        got.reason.text,
        [],
        state.domains.filter((d) => d.parsed),
      );
      return;
    }
    state.ipError = undefined;
    const ipChanged = got.ip !== state.ip;
    if (ipChanged) {
      const from = given ? ddnsReason('fromModule', { module: given.module }) : sourceOf(task, got.from);
      const line = state.ip
        ? ddnsLogLine('ipChanged', { ip: got.ip, from, prev: state.ip })
        : ddnsLogLine('ipGot', { ip: got.ip, from });
      state.logLine(4, line, env.now());
      state.ip = got.ip;
      state.ipTime = env.now();
      state.addIp(got.ip, env.now());
    }
    const forceMs = task.forceInterval * 1000 - 1000;
    const forced =
      opts.forced === true || state.lastForcedSync === undefined || started - state.lastForcedSync >= forceMs;
    const success: DomainRuntime[] = [];
    const failed: DomainRuntime[] = [];
    for (const d of state.domains) {
      if (env.signal?.aborted) break;
      const r = await syncDomain(task, state, d, got.ip, ipChanged, forced, env);
      if (r === 'success') success.push(d);
      else if (r === 'failed') failed.push(d);
    }
    if (forced && !env.signal?.aborted) state.lastForcedSync = started;
    if (success.length || failed.length) await maybeWebhook(task, state, env, got.ip, '', success, failed);
  } catch (err) {
    // A bug must not stop the other tasks; it shows on this task.
    state.logLine(2, ddnsLogLine('checkFailed', { detail: (err as Error).message }), env.now());
    env.log.error(`task ${task.name || task.key}: check failed: ${(err as Error).stack ?? err}`);
  } finally {
    state.running = false;
  }
}

async function maybeWebhook(
  task: DdnsTask,
  state: TaskState,
  env: SyncEnv,
  ip: string,
  ipError: string,
  success: DomainRuntime[],
  failed: DomainRuntime[],
): Promise<void> {
  // The task's own webhook; without one the global webhook stands in.
  const own = task.webhook.enabled;
  const w = own ? task.webhook : env.globalWebhook;
  if (!w.enabled) return;
  if (!ip && !w.callOnIpFail) return;
  const names = (list: DomainRuntime[]) => list.map((d) => d.parsed?.fqdn ?? d.line);
  const vars = webhookVars({
    ip,
    ipError,
    taskName: task.name,
    recordType: task.recordType,
    success: names(success),
    failed: names(failed),
    now: new Date(env.now()),
  });
  const r = await callWebhook(w, vars, {
    http: env.http,
    // Proxy type `dns`: the task's provider proxy.
    moduleProxy: () => proxyOf(task.proxy),
    signal: env.signal,
    delay: env.delay,
  });
  env.webhooks.add(task.key, { ...callView(r, new Date(env.now())), target: own ? 'task' : 'global' });
  if (!r.ok) {
    const line = ddnsLogLine('webhookFailed', { attempts: r.attempts, cause: r.reason });
    state.logLine(2, line, env.now());
    env.log.warn(`task ${task.name || task.key}: ${line.text}`);
  }
}

/** Where the task's address came from, for its log: the URL, the network card, the command … */
function sourceOf(task: DdnsTask, from: string): CodedText {
  switch (task.ipSource.type) {
    case 'url':
      return ddnsReason('fromUrl', { url: from });
    case 'netInterface':
      return ddnsReason('fromInterface', { name: from });
    case 'command':
      return ddnsReason('fromCommand');
    default:
      return ddnsReason('fromOdhcpd');
  }
}

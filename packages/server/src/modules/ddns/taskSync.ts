// One check of one task (the ancestor's algorithm, lucky-reference §3.1, minus its bugs):
// get the IP → nothing to do for records known to hold it → otherwise optional DNS check →
// provider find / create / update / no-op → statuses, histories, webhook. Every failure stays
// inside this task and its domains.
import type { DdnsTask, DdnsWebhook } from '@lucky/shared';
import { type DnsService, ProviderError } from '../../core/dns/index.js';
import type { Logger } from '../../core/logs/logger.js';
import type { NetInterfaces } from '../../core/net/interfaces.js';
import type { HttpClients } from '../../core/outbound/client.js';
import { callbackProvider } from './callback.js';
import { parseDomains } from './domains.js';
import { getTaskIp, type IpResult } from './ipSources/index.js';
import { clientOptions, type ProviderEnv, ttlFor } from './providerContext.js';
import { resolveOnServers } from './resolverCheck.js';
import { scrubbingLogger, secretsOf } from './secrets.js';
import type { DomainRuntime, TaskState } from './state.js';
import { callWebhook, webhookVars } from './webhook.js';

export interface SyncEnv {
  http: HttpClients;
  /** The core's DNS providers (`ctx.dns`). */
  dns: DnsService;
  log: Logger;
  suffixes: Set<string>;
  globalWebhook: DdnsWebhook;
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
}

const IN_STEP = new Set(['ipSame', 'providerSame', 'dnsSame', 'ipUnchanged', 'succeeded']);

/** Puts the task's domain lines (parsed) into its state; invalid lines fail on their own. */
export function refreshDomains(task: DdnsTask, state: TaskState, suffixes: Set<string>): void {
  state.setDomains(
    parseDomains(task.domains, suffixes).map((p) =>
      p.ok ? { line: p.domain.line, parsed: p.domain } : { line: p.line, error: p.error },
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
    state.setStatus(d, 'ipSame', now(), `${p.fqdn} already holds ${ip}`);
    return 'quiet';
  }
  const family = task.recordType === 'A' ? 4 : 6;
  if (task.resolverCheck) {
    const a = await resolveOnServers(p.fqdn, family, task.dnsServers, task.httpTimeout * 1000);
    if (a.addresses.includes(ip)) {
      d.value = ip;
      state.setStatus(d, 'dnsSame', now(), `${a.server} answers ${ip}`);
      return 'quiet';
    }
    if (a.error) state.log('warn', `${p.fqdn}: DNS check failed (${a.error}), asking the provider`, now());
  }
  const kind = task.dns.provider;
  if (kind !== 'callback' && !env.dns.capabilities(kind)) {
    state.setStatus(d, 'failed', now(), `unknown DNS provider "${kind}"`, 'unknownProvider');
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
      state.setStatus(d, 'providerSame', now(), `the provider's record already holds ${ip}`);
      return 'quiet';
    }
    state.setStatus(d, 'succeeded', now(), `${outcome} ${task.recordType} ${ip}`);
    state.log('info', `${p.fqdn}: ${outcome} ${task.recordType} ${ip}`, now());
    env.log.info(`${p.fqdn}: ${outcome} ${task.recordType} ${ip}`);
    return 'success';
  } catch (err) {
    const msg = err instanceof ProviderError ? err.message : `${(err as Error).message}`;
    // A failure is news once (program log, webhook), not again every round while it lasts.
    const repeated = d.status === 'failed' && d.msg === msg;
    state.setStatus(d, 'failed', now(), msg, 'providerError');
    state.log('error', `${p.fqdn}: update failed: ${msg}`, now());
    if (repeated) return 'quiet';
    env.log.warn(`${p.fqdn}: update failed: ${msg}`);
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
    const got = await getTaskIp(task.ipSource, family, {
      http: env.http,
      timeoutMs: task.httpTimeout * 1000,
      signal: env.signal,
      cache: env.ipCache,
      interfaces: env.interfaces,
      now: env.now,
    });
    state.lastCheck = env.now();
    if (!got.ok) {
      const repeated = state.ipError?.msg === got.msg;
      state.ipError = { code: got.code, msg: got.msg };
      for (const d of state.domains) if (d.parsed) state.setStatus(d, 'paused', env.now(), got.msg, got.code);
      state.log('error', `getting the IP failed: ${got.msg}`, env.now());
      if (repeated) return;
      env.log.warn(`task ${task.name || task.key}: getting the IP failed: ${got.msg}`);
      await maybeWebhook(
        task,
        state,
        env,
        '',
        got.msg,
        [],
        state.domains.filter((d) => d.parsed),
      );
      return;
    }
    state.ipError = undefined;
    const ipChanged = got.ip !== state.ip;
    if (ipChanged) {
      state.log('info', `IP ${got.ip} (from ${got.from})${state.ip ? `, was ${state.ip}` : ''}`, env.now());
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
    state.log('error', `check failed: ${(err as Error).message}`, env.now());
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
  const r = await callWebhook(w, vars, { http: env.http, taskProxy: task.proxy, signal: env.signal, delay: env.delay });
  state.addWebhook({
    time: new Date(env.now()).toISOString(),
    ok: r.ok,
    target: own ? 'task' : 'global',
    attempts: r.attempts,
    ...(r.status !== undefined ? { status: r.status } : {}),
    msg: r.msg,
  });
  if (!r.ok) {
    state.log('error', `webhook call error: ${r.msg} (${r.attempts} attempts)`, env.now());
    env.log.warn(`task ${task.name || task.key}: webhook call error: ${r.msg}`);
  }
}

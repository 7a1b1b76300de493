// One order from start to a PEM chain (RFC 8555 §7.4): new order → each pending authorization's
// challenge published (HTTP-01 board / responder, DNS-01 TXT + propagation) → CA told → settled →
// finalize with a new key's CSR → download. Whatever was published is taken down in the end,
// success or not. Every failure leaves as an OrderFailure with a coded reason.
import { isIP } from 'node:net';
import type { AcmeAccount, AcmeCertificate, AcmeCertificateStatus } from '@lucky/shared';
import type { DnsProviderKind } from '../../core/dns/types.js';
import type { ModuleContext } from '../../core/modules/types.js';
import type { HttpClients } from '../../core/outbound/client.js';
import type { CaAuthorization, CaKit, CaSession } from './ca.js';
import { authoritativeServers, type PublishedTxt, publishTxt, recordName, waitForPropagation } from './dns01.js';
import { http01Answerer, startResponder } from './http01.js';
import { detailOf, OrderFailure, reason } from './reasons.js';

export type Step = NonNullable<AcmeCertificateStatus['step']>;

export interface OrderEnv {
  ctx: Pick<ModuleContext, 'ports' | 'challenges' | 'dns' | 'safe'>;
  kit: CaKit;
  session: CaSession;
  http: HttpClients;
  timeoutMs: number;
  signal: AbortSignal;
  sleep(ms: number): Promise<void>;
  step(s: Step): void;
  log(code: 'challengeReady' | 'propagationWait' | 'validated', params: Record<string, unknown>): void;
  /** The ARI id of the certificate this order replaces. */
  replaces?: string;
}

export interface Issued {
  fullchain: string;
  keyPem: string;
}

/** The step a client error happened in, for its reason (`timeout` names it). */
async function at<T>(env: OrderEnv, step: Step, fn: () => Promise<T>): Promise<T> {
  env.step(step);
  try {
    return await fn();
  } catch (err) {
    if (err instanceof OrderFailure) throw err;
    if (env.signal.aborted) throw new OrderFailure(reason('cancelled', {}));
    const r = env.kit.reasonOf(err, step);
    if (r) throw new OrderFailure(r, r.retryAfterMs ?? 0);
    throw new OrderFailure(reason('caProblem', { type: step, detail: detailOf(err) }));
  }
}

const problemDetail = (e: { type?: string; detail?: string } | undefined) =>
  e
    ? `${e.detail ?? ''}${e.type ? ` (${e.type.replace('urn:ietf:params:acme:error:', '')})` : ''}`.trim()
    : 'no detail';

export async function runOrder(cert: AcmeCertificate, env: OrderEnv): Promise<Issued> {
  const identifiers = cert.names.map((n) => ({ type: isIP(n) ? ('ip' as const) : ('dns' as const), value: n }));
  const order = await at(env, 'order', () => env.session.newOrder(identifiers, env.replaces));
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const pending: { authz: CaAuthorization; url: string; challengeUrl: string; name: string }[] = [];
    const published: PublishedTxt[] = [];
    let board = false;
    for (const url of order.authorizations) {
      const authz = await at(env, 'challenge', () => env.session.authorization(url));
      if (authz.status === 'valid') continue;
      const name = authz.wildcard ? `*.${authz.identifier.value}` : authz.identifier.value;
      const ch = authz.challenges.find((c) => c.type === cert.challenge);
      if (!ch) throw new OrderFailure(reason('challengeUnavailable', { type: cert.challenge, name }));
      if (cert.challenge === 'http-01') {
        if (!board) {
          board = true;
          const who = http01Answerer(env.ctx, cert.http.port);
          if (who.by === 'other')
            throw new OrderFailure(reason('httpPortBusy', { port: cert.http.port, owner: who.owner }));
          if (who.by === 'responder') cleanups.push(await startResponder(env.ctx, cert.http.port));
        }
        env.ctx.challenges.set(ch.token, env.session.keyAuthorization(ch.token));
        cleanups.push(async () => env.ctx.challenges.delete(ch.token));
      } else {
        const txt = await publishDns(cert, name, env.session.dns01Value(ch.token), env);
        published.push(txt);
        cleanups.push(() => txt.provider.removeTxt(txt.name, txt.value).catch(() => undefined));
      }
      env.log('challengeReady', { type: cert.challenge, name });
      pending.push({ authz, url, challengeUrl: ch.url, name });
    }
    if (cert.challenge === 'dns-01' && cert.dns.propagationCheck) {
      for (const txt of published) {
        await at(env, 'propagation', async () => {
          const servers = await authoritativeServers(txt.name.fqdn, cert.dns);
          env.log('propagationWait', { record: txt.name.fqdn, servers: servers.join(', ') });
          await waitForPropagation(servers, txt.name.fqdn, txt.value, cert.dns, env.sleep);
        });
      }
    }
    for (const p of pending) await at(env, 'validation', () => env.session.ready(p.challengeUrl));
    for (const p of pending) {
      const settled = await at(env, 'validation', () => env.session.settle(p.url));
      if (settled.status !== 'valid') {
        const ch = settled.challenges.find((c) => c.type === cert.challenge);
        throw new OrderFailure(
          reason('validationFailed', { name: p.name, type: cert.challenge, detail: problemDetail(ch?.error) }),
        );
      }
      env.log('validated', { name: p.name, type: cert.challenge });
    }
  } finally {
    // Take down what was published, newest first; a failed removal is not the order's failure.
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
  const keyPem = await env.kit.generateKey(cert.keyType);
  const done = await at(env, 'finalize', () => env.session.finalize(order, env.kit.csr(cert.names, keyPem)));
  if (done.status !== 'valid' || !done.certificate)
    throw new OrderFailure(
      done.status === 'invalid'
        ? reason('orderInvalid', { detail: problemDetail(done.error) })
        : reason('finalizeFailed', { detail: `order ${done.status}` }),
    );
  const url = done.certificate;
  const fullchain = await at(env, 'download', () => env.session.download(url));
  return { fullchain, keyPem };
}

async function publishDns(cert: AcmeCertificate, name: string, value: string, env: OrderEnv): Promise<PublishedTxt> {
  const record = await recordName(name.replace(/^\*\./, ''), cert.dns);
  let provider: ReturnType<OrderEnv['ctx']['dns']['create']>;
  let dnsName: ReturnType<OrderEnv['ctx']['dns']['name']>;
  try {
    provider = env.ctx.dns.create(
      {
        provider: cert.dns.provider as DnsProviderKind,
        id: cert.dns.id,
        secret: cert.dns.secret,
        server: cert.dns.server,
        zone: cert.dns.zone,
        tsigAlgorithm: cert.dns.tsigAlgorithm,
      },
      { http: env.http, timeoutMs: env.timeoutMs, signal: env.signal },
    );
    dnsName = env.ctx.dns.name(record);
  } catch (err) {
    throw new OrderFailure(reason('dnsWriteFailed', { record, detail: detailOf(err) }));
  }
  env.step('challenge');
  return publishTxt(provider, dnsName, value, cert.dns.ttl);
}

/** Registers the account when it has no URL yet; answers the URL. */
export async function ensureAccount(
  account: AcmeAccount,
  env: Pick<OrderEnv, 'session' | 'kit' | 'signal' | 'step'>,
): Promise<string> {
  if (account.accountUrl) return account.accountUrl;
  return at(env as OrderEnv, 'account', () =>
    env.session.register({
      email: account.email,
      ...(account.eab.kid && account.eab.hmacKey
        ? { eab: { kid: account.eab.kid, hmacKey: account.eab.hmacKey } }
        : {}),
    }),
  );
}

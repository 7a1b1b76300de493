// An RFC 8555 ACME client over node:crypto (keys, JWS) and the core's outbound HTTP (undici,
// with a private CA's root for a directory on the LAN or a test CA). One client per account
// key; it caches the directory, keeps the nonces the CA hands out, and retries a badNonce with
// the fresh one. Every call is bounded by `timeoutMs` and stops with `signal`.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClients, type HttpResponse } from '../../../core/outbound/client.js';
import { certIdOf, leafDer } from './ari.js';
import { eabJws, signJws } from './jws.js';
import { type AcmeKey, jwkThumbprint, loadKey } from './keys.js';
import { AcmeNetworkError, AcmeProblem, AcmeProtocolError, parseRetryAfter } from './problem.js';
import type {
  AcmeAccountInfo,
  AcmeAuthorization,
  AcmeCertificateChain,
  AcmeChallenge,
  AcmeClientApi,
  AcmeClientOptions,
  AcmeDirectory,
  AcmeEab,
  AcmeIdentifier,
  AcmeOrder,
  AcmePollOptions,
  AcmeProblemDocument,
  AcmeRenewalInfo,
  AcmeStep,
} from './types.js';

/** RFC 8555 §6.5: a client retries a badNonce with the nonce of the error answer. */
const BAD_NONCE_RETRIES = 5;
/** States a resource does not leave: a poll ends there whatever it waits for. */
const FINAL = new Set(['invalid', 'deactivated', 'expired', 'revoked']);
const USER_AGENT = 'lucky-console-acme/1';

interface SignedOptions {
  /** Sign with the JWK instead of the account URL (newAccount). */
  jwk?: boolean;
  accept?: string;
}

export class AcmeClient implements AcmeClientApi {
  private readonly key: AcmeKey;
  private readonly http: HttpClients;
  private directoryPromise: Promise<AcmeDirectory> | undefined;
  private readonly nonces: string[] = [];
  private account: string | undefined;
  /** Counters for the log and the tests: signed requests sent, badNonce answers retried. */
  readonly stats = { signedRequests: 0, badNonceRetries: 0 };

  constructor(private readonly options: AcmeClientOptions) {
    this.key = loadKey(options.accountKeyPem);
    this.account = options.accountUrl || undefined;
    this.http = new HttpClients({ ca: options.caCertPem || undefined, connections: 4 });
  }

  get accountUrl(): string | undefined {
    return this.account;
  }

  /** The account key's RFC 7638 thumbprint. */
  get thumbprint(): string {
    return jwkThumbprint(this.key.jwk);
  }

  keyAuthorization(token: string): string {
    return `${token}.${this.thumbprint}`;
  }

  dns01Value(token: string): string {
    return createHash('sha256').update(this.keyAuthorization(token)).digest('base64url');
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  // ---- transport ------------------------------------------------------------------------------

  /** One exchange, bounded by `timeoutMs`; network failures become AcmeNetworkError with the step. */
  private async send(
    step: AcmeStep,
    method: 'GET' | 'HEAD' | 'POST',
    url: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse> {
    const { timeoutMs, signal } = this.options;
    if (signal?.aborted) throw new AcmeNetworkError('stopped', step, url, 'stopped');
    // Our own timer (the outbound client's is set later than ours) so a timeout is told apart
    // from a refused connection and from the caller's stop.
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, timeoutMs);
    const onStop = () => ac.abort();
    signal?.addEventListener('abort', onStop, { once: true });
    try {
      return await this.http.request(
        {},
        {
          method,
          url,
          body,
          headers: { 'user-agent': USER_AGENT, ...headers },
          timeoutMs: timeoutMs + 1000,
          signal: ac.signal,
        },
      );
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      if (timedOut) throw new AcmeNetworkError('timeout', step, url, `no answer within ${timeoutMs} ms`, timeoutMs);
      if (signal?.aborted) throw new AcmeNetworkError('stopped', step, url, 'stopped');
      throw new AcmeNetworkError('unreachable', step, url, detail);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onStop);
    }
  }

  private keepNonce(res: HttpResponse): void {
    const nonce = res.headers['replay-nonce'];
    // Only the latest few: older ones may have expired at the CA by the time they are used.
    if (nonce) this.nonces.push(nonce);
    if (this.nonces.length > 4) this.nonces.shift();
  }

  private async nonce(): Promise<string> {
    const kept = this.nonces.pop();
    if (kept) return kept;
    const dir = await this.directory();
    const res = await this.send('nonce', 'HEAD', dir.newNonce);
    const nonce = res.headers['replay-nonce'];
    if (!nonce) throw new AcmeProtocolError('nonce', `newNonce answered HTTP ${res.status} without a Replay-Nonce`);
    return nonce;
  }

  private problem(res: HttpResponse, step: AcmeStep): AcmeProblem {
    let doc: AcmeProblemDocument = {};
    try {
      const parsed = JSON.parse(res.text) as unknown;
      if (parsed && typeof parsed === 'object') doc = parsed as AcmeProblemDocument;
    } catch {
      doc = { detail: `HTTP ${res.status}: ${res.text.slice(0, 300)}` };
    }
    return new AcmeProblem(doc, res.status, step, parseRetryAfter(res.headers['retry-after']));
  }

  private json<T>(res: HttpResponse, step: AcmeStep): T {
    try {
      return JSON.parse(res.text) as T;
    } catch {
      throw new AcmeProtocolError(step, `HTTP ${res.status}: not JSON: ${res.text.slice(0, 200)}`);
    }
  }

  /** A signed POST (payload undefined = POST-as-GET); badNonce is retried with the fresh nonce. */
  private async signed(step: AcmeStep, url: string, payload: unknown, o: SignedOptions = {}): Promise<HttpResponse> {
    const kid = o.jwk ? undefined : await this.requireAccount(step);
    for (let attempt = 0; ; attempt++) {
      const nonce = await this.nonce();
      const jws = signJws(this.key, payload, { url, nonce, kid });
      this.stats.signedRequests++;
      const res = await this.send(step, 'POST', url, JSON.stringify(jws), {
        'content-type': 'application/jose+json',
        ...(o.accept ? { accept: o.accept } : {}),
      });
      this.keepNonce(res);
      if (res.status < 400) return res;
      const problem = this.problem(res, step);
      if (problem.type === 'badNonce' && attempt < BAD_NONCE_RETRIES) {
        this.stats.badNonceRetries++;
        continue;
      }
      throw problem;
    }
  }

  private async requireAccount(step: AcmeStep): Promise<string> {
    if (this.account) return this.account;
    const found = await this.lookup();
    if (!found) {
      throw new AcmeProblem(
        { type: 'urn:ietf:params:acme:error:accountDoesNotExist', detail: 'no account for this key' },
        400,
        step,
      );
    }
    return found.url;
  }

  // ---- directory and account ------------------------------------------------------------------

  directory(): Promise<AcmeDirectory> {
    this.directoryPromise ??= (async () => {
      const url = this.options.directoryUrl;
      const res = await this.send('directory', 'GET', url);
      // A wrong URL (a web page, a 404) is "cannot be reached" for the user, not a CA's refusal.
      const notDirectory = (why: string) => new AcmeNetworkError('unreachable', 'directory', url, why);
      if (res.status >= 400) throw notDirectory(`HTTP ${res.status}`);
      let dir: AcmeDirectory;
      try {
        dir = JSON.parse(res.text) as AcmeDirectory;
      } catch {
        throw notDirectory(`HTTP ${res.status}: not an ACME directory (no JSON)`);
      }
      for (const field of ['newNonce', 'newAccount', 'newOrder', 'revokeCert'] as const) {
        if (typeof dir?.[field] !== 'string') throw notDirectory(`not an ACME directory (no ${field})`);
      }
      return dir;
    })().catch((err: unknown) => {
      this.directoryPromise = undefined; // ask again next time
      throw err;
    });
    return this.directoryPromise;
  }

  private accountOf(res: HttpResponse): AcmeAccountInfo {
    const url = res.headers.location;
    if (!url) throw new AcmeProtocolError('account', `newAccount answered HTTP ${res.status} without a Location`);
    const body = this.json<{ status?: AcmeAccountInfo['status']; contact?: string[] }>(res, 'account');
    this.account = url;
    return { url, status: body.status ?? 'valid', contact: body.contact, created: res.status === 201 };
  }

  async register(o: { email?: string; eab?: AcmeEab }): Promise<AcmeAccountInfo> {
    const dir = await this.directory();
    const payload: Record<string, unknown> = {
      termsOfServiceAgreed: true,
      contact: o.email ? [`mailto:${o.email}`] : [],
    };
    if (o.eab?.kid) payload.externalAccountBinding = eabJws(this.key, o.eab, dir.newAccount);
    return this.accountOf(await this.signed('account', dir.newAccount, payload, { jwk: true }));
  }

  async lookup(): Promise<AcmeAccountInfo | undefined> {
    const dir = await this.directory();
    try {
      return this.accountOf(await this.signed('account', dir.newAccount, { onlyReturnExisting: true }, { jwk: true }));
    } catch (err) {
      if (err instanceof AcmeProblem && err.type === 'accountDoesNotExist') return undefined;
      throw err;
    }
  }

  // ---- orders ---------------------------------------------------------------------------------

  async newOrder(identifiers: readonly AcmeIdentifier[], o: { replaces?: string } = {}): Promise<AcmeOrder> {
    const dir = await this.directory();
    const payload: Record<string, unknown> = { identifiers };
    // RFC 9773 §5: only to a CA that offers ARI (others may refuse the unknown field).
    if (o.replaces && dir.renewalInfo) payload.replaces = o.replaces;
    const res = await this.signed('order', dir.newOrder, payload);
    const url = res.headers.location;
    if (!url) throw new AcmeProtocolError('order', `newOrder answered HTTP ${res.status} without a Location`);
    return { ...this.json<Omit<AcmeOrder, 'url'>>(res, 'order'), url };
  }

  async order(url: string): Promise<AcmeOrder> {
    return { ...this.json<Omit<AcmeOrder, 'url'>>(await this.signed('order', url, undefined), 'order'), url };
  }

  async authorization(url: string): Promise<AcmeAuthorization> {
    const res = await this.signed('authorization', url, undefined);
    return { ...this.json<Omit<AcmeAuthorization, 'url'>>(res, 'authorization'), url };
  }

  async challengeReady(url: string): Promise<AcmeChallenge> {
    return this.json<AcmeChallenge>(await this.signed('challenge', url, {}), 'challenge');
  }

  async poll<T extends object>(url: string, until: (resource: T) => boolean, o: AcmePollOptions = {}): Promise<T> {
    const { timeoutMs = 120_000, intervalMs = 250, maxIntervalMs = 10_000 } = o;
    const deadline = Date.now() + timeoutMs;
    let wait = intervalMs;
    for (;;) {
      const res = await this.signed('poll', url, undefined);
      const resource = this.json<T>(res, 'poll');
      const status = (resource as { status?: string }).status;
      if (until(resource) || (status && FINAL.has(status))) return resource;
      const asked = parseRetryAfter(res.headers['retry-after']);
      const next = Math.min(asked !== undefined ? asked * 1000 : wait, maxIntervalMs);
      if (Date.now() + next > deadline) {
        throw new AcmeNetworkError(
          'timeout',
          'poll',
          url,
          `still ${status ?? 'unchanged'} after ${Math.round(timeoutMs / 1000)} s`,
          timeoutMs,
        );
      }
      try {
        await sleep(next, undefined, { signal: this.options.signal });
      } catch {
        throw new AcmeNetworkError('stopped', 'poll', url, 'stopped');
      }
      wait = Math.min(wait * 2, maxIntervalMs);
    }
  }

  async finalize(order: AcmeOrder, csrDer: Buffer): Promise<AcmeOrder> {
    const res = await this.signed('finalize', order.finalize, { csr: csrDer.toString('base64url') });
    return { ...this.json<Omit<AcmeOrder, 'url'>>(res, 'finalize'), url: order.url };
  }

  async downloadCertificate(url: string): Promise<AcmeCertificateChain> {
    const res = await this.signed('download', url, undefined, { accept: 'application/pem-certificate-chain' });
    if (!res.text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new AcmeProtocolError('download', `the certificate URL answered no PEM: ${res.text.slice(0, 200)}`);
    }
    return { pem: res.text, alternates: links(res.headers.link, 'alternate') };
  }

  async revoke(certPem: string, reason = 0): Promise<void> {
    const dir = await this.directory();
    await this.signed('revoke', dir.revokeCert, { certificate: leafDer(certPem).toString('base64url'), reason });
  }

  async renewalInfo(certPem: string): Promise<AcmeRenewalInfo | undefined> {
    const dir = await this.directory();
    if (!dir.renewalInfo) return undefined;
    const certId = certIdOf(certPem);
    const url = `${dir.renewalInfo.replace(/\/+$/, '')}/${certId}`;
    const res = await this.send('renewalInfo', 'GET', url);
    if (res.status >= 400) throw this.problem(res, 'renewalInfo');
    const body = this.json<{ suggestedWindow?: { start?: string; end?: string }; explanationURL?: string }>(
      res,
      'renewalInfo',
    );
    const start = new Date(body.suggestedWindow?.start ?? '');
    const end = new Date(body.suggestedWindow?.end ?? '');
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end < start) {
      throw new AcmeProtocolError('renewalInfo', `no usable suggestedWindow: ${res.text.slice(0, 200)}`);
    }
    return {
      certId,
      window: { start, end },
      ...(body.explanationURL ? { explanationUrl: body.explanationURL } : {}),
      ...(res.headers['retry-after'] ? { retryAfterSeconds: parseRetryAfter(res.headers['retry-after']) } : {}),
    };
  }
}

/** URLs of a Link header's entries with the relation (the outbound client joins repeated headers with ", "). */
export function links(header: string | undefined, rel: string): string[] {
  if (!header) return [];
  const out: string[] = [];
  for (const m of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rels = /;\s*rel="?([^";,]+(?: [^";,]+)*)"?/i.exec(m[2])?.[1].split(' ') ?? [];
    if (rels.includes(rel)) out.push(m[1]);
  }
  return out;
}

/** Identifiers of an order's names: IP addresses as `ip`, everything else (wildcards too) as `dns`. */
export function identifiersOf(names: readonly string[]): AcmeIdentifier[] {
  return names.map((value) => ({ type: isIP(value) !== 0 ? 'ip' : 'dns', value }));
}

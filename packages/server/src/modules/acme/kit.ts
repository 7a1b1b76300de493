// The module's CA kit over the RFC 8555 client (client/): sessions shaped for the order flow
// (authorizations settled, orders finalized and polled), keys, CSRs, and client errors as reasons.
import type { CaKit, CaSession } from './ca.js';
import {
  type AcmeAuthorization,
  AcmeClient,
  type AcmeOrder,
  AcmeProblem,
  certIdOf,
  createCsr,
  generateKeyPem,
  reasonOf,
} from './client/index.js';
import { reason } from './reasons.js';

/** How long an authorization or an order may stay pending / processing at the CA. */
const SETTLE_MS = 120_000;

export const clientKit: CaKit = {
  session(opts): CaSession {
    const client = new AcmeClient({
      directoryUrl: opts.directoryUrl,
      accountKeyPem: opts.accountKeyPem,
      ...(opts.accountUrl ? { accountUrl: opts.accountUrl } : {}),
      ...(opts.caCertPem ? { caCertPem: opts.caCertPem } : {}),
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
    });
    // One session per order or call: closed by the caller, or when its signal ends it.
    opts.signal.addEventListener('abort', () => void client.close(), { once: true });
    return {
      register: async (o) =>
        (await client.register({ email: o.email || undefined, ...(o.eab ? { eab: o.eab } : {}) })).url,
      newOrder: (ids, replaces) => client.newOrder(ids, replaces ? { replaces } : undefined),
      authorization: (url) => client.authorization(url),
      ready: async (url) => {
        await client.challengeReady(url);
      },
      settle: (url) => client.poll<AcmeAuthorization>(url, (a) => a.status !== 'pending', { timeoutMs: SETTLE_MS }),
      finalize: async (order, csrDer) => {
        const o = await client.finalize(order as AcmeOrder, csrDer);
        if (o.status === 'valid' || o.status === 'invalid') return o;
        return client.poll<AcmeOrder>(order.url, (x) => x.status === 'valid' || x.status === 'invalid', {
          timeoutMs: SETTLE_MS,
        });
      },
      download: async (url) => (await client.downloadCertificate(url)).pem,
      revoke: (pem, why) => client.revoke(pem, why),
      renewalInfo: async (pem) => {
        const info = await client.renewalInfo(pem);
        if (!info) return undefined;
        return {
          start: info.window.start.toISOString(),
          end: info.window.end.toISOString(),
          ...(info.explanationUrl ? { explanationUrl: info.explanationUrl } : {}),
          ...(info.retryAfterSeconds !== undefined ? { retryAfter: info.retryAfterSeconds } : {}),
        };
      },
      certId: (pem) => certIdOf(pem),
      keyAuthorization: (token) => client.keyAuthorization(token),
      dns01Value: (token) => client.dns01Value(token),
      close: () => client.close(),
    };
  },
  generateKey: (type) => generateKeyPem(type),
  csr: (names, keyPem) => createCsr(keyPem, names),
  reasonOf(err) {
    if (!(err instanceof Error)) return undefined;
    const r = reasonOf(err);
    const retryAfterMs = err instanceof AcmeProblem && err.retryAfter !== undefined ? err.retryAfter * 1000 : 0;
    return { ...reason(r.code, r.params), retryAfterMs };
  },
};

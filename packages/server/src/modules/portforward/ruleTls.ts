import tls from 'node:tls';
import type { PortforwardRule } from '@lucky/shared';
import type { CertResolver } from '../../core/certs/resolver.js';

/**
 * What a rule's TLS options turn into. `terminate`: the pasted pair's server context, else the
 * certificate store (`store`), asked per handshake by the client's server name, so an added or
 * renewed certificate serves at the next connection. `originate`: how to connect to the target.
 */
export interface RuleTls {
  serverContext?: tls.SecureContext;
  store?: CertResolver;
  client?: { servername?: string; rejectUnauthorized: boolean; ca?: string };
}

type TlsFields = Pick<PortforwardRule, 'tlsMode' | 'tlsCert' | 'tlsKey' | 'tlsCa' | 'tlsServerName' | 'tlsSkipVerify'>;

/** Terminates TLS with a certificate of the store: `terminate` without a pasted pair. */
export const usesCertStore = (rule: TlsFields): boolean => rule.tlsMode === 'terminate' && !rule.tlsCert.trim();

/** Builds the TLS side of a rule; throws when a pasted pair cannot be used. */
export function buildRuleTls(rule: TlsFields, certs: CertResolver): RuleTls {
  if (rule.tlsMode === 'terminate') {
    if (usesCertStore(rule)) return { store: certs };
    return { serverContext: tls.createSecureContext({ cert: rule.tlsCert, key: rule.tlsKey }) };
  }
  if (rule.tlsMode === 'originate') {
    return {
      client: {
        servername: rule.tlsServerName || undefined,
        rejectUnauthorized: !rule.tlsSkipVerify,
        ca: rule.tlsCa.trim() ? rule.tlsCa : undefined,
      },
    };
  }
  return {};
}

/**
 * The server side of a TLS connection from a client, or undefined when there is no certificate
 * to offer (the store is empty). The store's default certificate serves clients that send no
 * server name (an IP address); a name picks its own at the handshake.
 */
export function serverTlsOptions(t: RuleTls): tls.TLSSocketOptions | undefined {
  if (t.serverContext) return { isServer: true, secureContext: t.serverContext };
  const store = t.store;
  if (!store?.hasAny()) return undefined;
  return { isServer: true, secureContext: store.contextFor(undefined), SNICallback: store.sniCallback() };
}

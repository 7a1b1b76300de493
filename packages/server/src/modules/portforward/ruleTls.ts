import tls from 'node:tls';
import type { PortforwardErrorCode, PortforwardRule } from '@lucky/shared';
import type { KeyPair } from '../../core/tls/adminCert.js';

/** What a rule's TLS options turn into: a server context to accept TLS, or options to connect with TLS. */
export interface RuleTls {
  serverContext?: tls.SecureContext;
  client?: { servername?: string; rejectUnauthorized: boolean; ca?: string };
}

type TlsFields = Pick<PortforwardRule, 'tlsMode' | 'tlsCert' | 'tlsKey' | 'tlsCa' | 'tlsServerName' | 'tlsSkipVerify'>;

/** The server-side check the shared schema cannot do (no node:crypto there): PEM that parses. */
export function checkRuleTls(rule: TlsFields): { field: string; code: PortforwardErrorCode } | undefined {
  if (rule.tlsMode === 'terminate' && rule.tlsCert.trim()) {
    try {
      tls.createSecureContext({ cert: rule.tlsCert, key: rule.tlsKey });
    } catch {
      return { field: 'tlsCert', code: 'tlsPairInvalid' };
    }
  }
  if (rule.tlsMode === 'originate' && rule.tlsCa.trim()) {
    try {
      tls.createSecureContext({ ca: rule.tlsCa });
      if (!rule.tlsCa.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no certificate');
    } catch {
      return { field: 'tlsCa', code: 'tlsCaInvalid' };
    }
  }
  return undefined;
}

/** Needs the admin's certificate: terminate without a pasted pair. */
export const needsAdminCert = (rule: TlsFields): boolean => rule.tlsMode === 'terminate' && !rule.tlsCert.trim();

/**
 * Builds the TLS side of a rule. For `terminate` the pasted pair, else the admin's self-signed
 * certificate (until the certificate store lands). For `originate` SNI and verification.
 */
export function buildRuleTls(rule: TlsFields, adminCert: KeyPair | undefined): RuleTls {
  if (rule.tlsMode === 'terminate') {
    const pair = rule.tlsCert.trim() ? { cert: rule.tlsCert, key: rule.tlsKey } : adminCert;
    if (!pair) throw new Error('no certificate for TLS');
    return { serverContext: tls.createSecureContext({ cert: pair.cert, key: pair.key }) };
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

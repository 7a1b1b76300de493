// The checks of an account and a certificate beyond their schemas (one per field, first problem
// wins): the routes give them item-relative fields, the definition's `validate` prefixes the list
// path, so a config file edited by hand is held to the same rules.
import { X509Certificate } from 'node:crypto';
import {
  ACME_CA_INFO,
  type AcmeAccount,
  type AcmeCertificate,
  type AcmeConfig,
  type AcmeIssueCode,
  acmeIssues,
  type FieldIssue,
  isAcmeName,
  isDirectoryUrl,
  isIp,
} from '@lucky/shared';
import { createDnsService } from '../../core/dns/index.js';
import { serverSpec } from './dns01.js';

type Issue = FieldIssue<AcmeIssueCode>;

const dnsKinds = createDnsService();

function issue(field: string, code: AcmeIssueCode, params: Record<string, unknown> = {}): Issue {
  return { field, code, params, msg: acmeIssues.describe(code, params) };
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function checkAccount(
  a: Omit<AcmeAccount, 'key' | 'accountKeyPem' | 'accountUrl'> & { key?: string },
  config: AcmeConfig,
): Issue | undefined {
  if (config.accounts.some((x) => x.key !== a.key && sameName(x.name, a.name)))
    return issue('name', 'nameTaken', { name: a.name });
  if (a.ca === 'custom' && !isDirectoryUrl(a.directoryUrl)) return issue('directoryUrl', 'directoryUrlInvalid');
  if (a.ca !== 'custom' && ACME_CA_INFO[a.ca].eab && (!a.eab.kid || !a.eab.hmacKey))
    return issue(a.eab.kid ? 'eab.hmacKey' : 'eab.kid', 'eabRequired');
  if (a.eab.hmacKey && a.eab.hmacKey !== '******' && !/^[A-Za-z0-9_-]+=*$/.test(a.eab.hmacKey))
    return issue('eab.hmacKey', 'eabKeyInvalid');
  if (a.caCertPem.trim()) {
    try {
      new X509Certificate(a.caCertPem);
    } catch {
      return issue('caCertPem', 'caCertInvalid');
    }
  }
  return undefined;
}

export function checkCertificate(
  c: Omit<AcmeCertificate, 'key'> & { key?: string },
  config: AcmeConfig,
): Issue | undefined {
  if (config.certificates.some((x) => x.key !== c.key && sameName(x.name, c.name)))
    return issue('name', 'nameTaken', { name: c.name });
  if (!config.accounts.some((a) => a.key === c.account))
    return issue('account', 'accountUnknown', { account: c.account });
  if (c.names.length === 0) return issue('names', 'namesRequired');
  const seen = new Set<string>();
  for (const [i, name] of c.names.entries()) {
    if (!isAcmeName(name)) return issue(`names.${i}`, 'domainInvalid', { name });
    if (seen.has(name)) return issue(`names.${i}`, 'domainDuplicate', { name });
    seen.add(name);
    if (name.startsWith('*.') && c.challenge !== 'dns-01') return issue(`names.${i}`, 'wildcardNeedsDns', { name });
    if (isIp(name) && c.challenge !== 'http-01') return issue(`names.${i}`, 'ipNeedsHttp', { name });
  }
  if (c.challenge === 'dns-01') {
    const caps = dnsKinds.capabilities(c.dns.provider);
    if (!caps) return issue('dns.provider', 'dnsProviderRequired');
    if (!caps.txt) return issue('dns.provider', 'dnsProviderNoTxt');
    for (const [i, token] of c.dns.nameservers.entries())
      if (!serverSpec(token)) return issue(`dns.nameservers.${i}`, 'nameserverInvalid', { token });
  }
  if (c.export.enabled && !c.export.dir.startsWith('/')) return issue('export.dir', 'exportDirInvalid');
  return undefined;
}

/** The whole slice (the definition's `validate`). */
export function checkConfig(config: AcmeConfig): Issue | undefined {
  for (const [i, a] of config.accounts.entries()) {
    const p = checkAccount(a, config);
    if (p) return { ...p, field: `accounts.${i}.${p.field}` };
  }
  for (const [i, c] of config.certificates.entries()) {
    const p = checkCertificate(c, config);
    if (p) return { ...p, field: `certificates.${i}.${p.field}` };
  }
  return undefined;
}

import { createHash, createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';

export interface CertInfo {
  /** DNS names of the certificate (subjectAltName, else the common name), lower case. */
  domains: string[];
  notBefore: string;
  notAfter: string;
}

export interface ParsedPair {
  /** One entry per certificate of the chain, leaf first. */
  chain: CertInfo[];
  /** sha256 of the leaf's DER: two uploads of the same certificate have the same one. */
  fingerprint: string;
  /** Normalised PEM texts. */
  certPem: string;
  keyPem: string;
}

export class CertError extends Error {
  constructor(
    message: string,
    readonly field: 'CertBase64' | 'KeyBase64',
  ) {
    super(message);
  }
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Names of one certificate: DNS SANs, else the subject's CN. */
export function certDomains(x: X509Certificate): string[] {
  const san = x.subjectAltName ?? '';
  const names = san
    .split(/,\s*/)
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).trim().toLowerCase())
    .filter(Boolean);
  if (names.length > 0) return [...new Set(names)];
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.subject)?.[1]?.trim().toLowerCase();
  return cn ? [cn] : [];
}

/**
 * Check a PEM certificate chain and private key: every block parses, the key
 * is a private key and belongs to the first (leaf) certificate.
 */
export function parseCertPair(certPem: string, keyPem: string): ParsedPair {
  const blocks = certPem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) throw new CertError('no PEM certificate found', 'CertBase64');
  let certs: X509Certificate[];
  try {
    certs = blocks.map((b) => new X509Certificate(b));
  } catch (err) {
    throw new CertError(`certificate does not parse: ${(err as Error).message}`, 'CertBase64');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch (err) {
    throw new CertError(`private key does not parse: ${(err as Error).message}`, 'KeyBase64');
  }
  if (!certs[0].checkPrivateKey(key)) {
    throw new CertError('the private key does not belong to the certificate', 'KeyBase64');
  }
  return {
    chain: certs.map((x) => ({
      domains: certDomains(x),
      notBefore: new Date(x.validFrom).toISOString(),
      notAfter: new Date(x.validTo).toISOString(),
    })),
    fingerprint: createHash('sha256').update(certs[0].raw).digest('hex'),
    certPem: `${blocks.join('\n')}\n`,
    keyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * Decode base64 of PEM text (what /api/getfilebase64 answers); PEM text itself
 * passes through, also with text before the first block (`openssl pkcs12
 * -nodes` writes "Bag Attributes" lines there). '-' is not a base64 character,
 * so a BEGIN line anywhere means PEM text.
 */
export function pemFromInput(value: string): string {
  const t = value.trim();
  if (t.includes('-----BEGIN ')) return t;
  return Buffer.from(t, 'base64').toString('utf8');
}

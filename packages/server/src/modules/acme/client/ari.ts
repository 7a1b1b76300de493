// ACME Renewal Information (RFC 9773) identifies a certificate by its issuer's key identifier
// and its serial: base64url(AKI keyIdentifier) '.' base64url(serial's DER content octets).
import { X509Certificate } from 'node:crypto';
import { children, oidText, readTlv } from './der.js';

const AKI_OID = '2.5.29.35';

/** The certID of the RFC from its two parts (the bytes as they stand in the certificate). */
export function ariCertId(authorityKeyId: Uint8Array, serialDer: Uint8Array): string {
  return `${Buffer.from(authorityKeyId).toString('base64url')}.${Buffer.from(serialDer).toString('base64url')}`;
}

/** The first certificate of a PEM chain, DER. */
export function leafDer(certPem: string): Buffer {
  return Buffer.from(new X509Certificate(certPem).raw);
}

/** The serial's INTEGER content octets and the AKI's keyIdentifier of a DER certificate. */
export function certIdParts(der: Buffer): { serial: Buffer; authorityKeyId: Buffer | undefined } {
  const tbs = children(readTlv(der))[0];
  const fields = children(tbs);
  // version is [0] EXPLICIT and optional (absent means v1)
  const at = fields[0].tag === 0xa0 ? 1 : 0;
  const serial = fields[at].content;
  const extensions = fields.find((f) => f.tag === 0xa3);
  let authorityKeyId: Buffer | undefined;
  if (extensions) {
    for (const ext of children(children(extensions)[0])) {
      const parts = children(ext);
      if (oidText(parts[0].content) !== AKI_OID) continue;
      const value = parts[parts.length - 1].content; // the OCTET STRING (after an optional critical flag)
      const keyId = children(readTlv(value)).find((c) => c.tag === 0x80); // [0] IMPLICIT keyIdentifier
      authorityKeyId = keyId?.content;
    }
  }
  return { serial: Buffer.from(serial), authorityKeyId: authorityKeyId && Buffer.from(authorityKeyId) };
}

/** The certID of the leaf of `certPem`; throws when the certificate has no Authority Key Identifier. */
export function certIdOf(certPem: string): string {
  const { serial, authorityKeyId } = certIdParts(leafDer(certPem));
  if (!authorityKeyId) throw new Error('the certificate has no Authority Key Identifier (ARI needs it)');
  return ariCertId(authorityKeyId, serial);
}

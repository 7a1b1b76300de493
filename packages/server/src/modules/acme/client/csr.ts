// PKCS#10 certificate signing request (RFC 2986) in DER, as ACME's finalize wants it: the
// subject's CN is the first DNS name (none for an IP-only order, or a name longer than X.520's
// 64 characters), every name in a subjectAltName extension request (dNSName / iPAddress),
// signed with the certificate key.
import { createPublicKey, sign } from 'node:crypto';
import net from 'node:net';
import { bitString, integer, nullValue, octetString, oid, seq, set, tlv, utf8String } from './der.js';
import { type AcmeKey, loadKey } from './keys.js';

const OID = {
  commonName: '2.5.4.3',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  rsaSha256: '1.2.840.113549.1.1.11',
};

/** The 4 or 16 bytes of an IP address. */
export function ipBytes(ip: string): Buffer {
  if (net.isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!net.isIPv6(ip)) throw new Error(`not an IP address: ${ip}`);
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const groups = (s: string | undefined) =>
    (s ? s.split(':') : []).flatMap((g) => {
      if (!g.includes('.')) return [Number.parseInt(g, 16)];
      const [a, b, c, d] = g.split('.').map(Number);
      return [a * 256 + b, c * 256 + d];
    });
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const words = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  const out = Buffer.alloc(16);
  for (const [i, w] of words.entries()) out.writeUInt16BE(w, i * 2);
  return out;
}

function signatureAlgorithm(key: AcmeKey): Buffer {
  if (key.jwk.kty === 'RSA') return seq(oid(OID.rsaSha256), nullValue());
  return seq(oid(key.hash === 'sha384' ? OID.ecdsaSha384 : OID.ecdsaSha256));
}

/** A CSR for `names` (DNS names, wildcards, IP addresses), DER, signed with the PEM key. */
export function createCsr(certKeyPem: string, names: readonly string[]): Buffer {
  if (names.length === 0) throw new Error('a CSR needs at least one name');
  const key = loadKey(certKeyPem);
  const ips = names.filter((n) => net.isIP(n) !== 0);
  const dns = names.filter((n) => net.isIP(n) === 0);
  const cn = dns.find((n) => n.length <= 64);
  const subject = cn ? seq(set(seq(oid(OID.commonName), utf8String(cn)))) : seq();
  const generalNames = seq(
    ...dns.map((n) => tlv(0x82, Buffer.from(n, 'ascii'))), // [2] dNSName, IA5String
    ...ips.map((ip) => tlv(0x87, ipBytes(ip))), // [7] iPAddress
  );
  const extensions = seq(seq(oid(OID.subjectAltName), octetString(generalNames)));
  const attributes = tlv(0xa0, seq(oid(OID.extensionRequest), set(extensions)));
  const spki = createPublicKey(key.key).export({ type: 'spki', format: 'der' });
  const info = seq(integer(0), subject, spki, attributes);
  // ECDSA in X.509 is DER-encoded (node's default), unlike JWS's raw r||s.
  const signature = sign(key.hash, info, key.key);
  return seq(info, signatureAlgorithm(key), bitString(signature));
}

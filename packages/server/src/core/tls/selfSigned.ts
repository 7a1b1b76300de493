import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed X.509 v3 certificate (EC P-256, ECDSA with SHA-256) made with
 * node:crypto and a small DER writer. A certificate library would load about
 * 15 MB of code into a process whose idle memory is budgeted, to be used once.
 */

// DER: tag, length, value.
function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let x = n; x > 0; x = Math.floor(x / 256)) bytes.unshift(x & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, value]);
}
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octets = (b: Buffer) => tlv(0x04, b);
const bitString = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));

function integer(b: Buffer): Buffer {
  let v = b;
  while (v.length > 1 && v[0] === 0 && v[1] < 0x80) v = v.subarray(1);
  if (v[0] >= 0x80) v = Buffer.concat([Buffer.from([0]), v]);
  return tlv(0x02, v);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out = [40 * parts[0] + parts[1]];
  for (const p of parts.slice(2)) {
    const chunk = [p & 0x7f];
    for (let x = Math.floor(p / 128); x > 0; x = Math.floor(x / 128)) chunk.unshift(0x80 | (x & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  for (let i = 0; i < 8; i++) out.writeUInt16BE(Number.parseInt(groups[i] || '0', 16), i * 2);
  return out;
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface SelfSignedOptions {
  commonName: string;
  dnsNames: string[];
  ips: string[];
  days: number;
}

export function makeSelfSigned(opts: SelfSignedOptions): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8(opts.commonName))));
  const serial = randomBytes(16);
  serial[0] &= 0x7f; // positive
  const now = Date.now();
  const san = Buffer.concat([
    ...opts.dnsNames.map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
    ...opts.ips.map((ip) => tlv(0x87, ipBytes(ip))),
  ]);
  const extensions = seq(
    seq(oid('2.5.29.19'), bool(true), octets(seq())), // basicConstraints: not a CA
    seq(oid('2.5.29.15'), bool(true), octets(tlv(0x03, Buffer.from([0x05, 0xa0])))), // keyUsage: digitalSignature, keyEncipherment
    seq(oid('2.5.29.37'), octets(seq(oid('1.3.6.1.5.5.7.3.1')))), // extKeyUsage: serverAuth
    seq(oid('2.5.29.17'), octets(tlv(0x30, san))), // subjectAltName
  );
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serial),
    ECDSA_SHA256,
    name,
    seq(time(new Date(now - 86400_000)), time(new Date(now + opts.days * 86400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const der = seq(tbs, ECDSA_SHA256, bitString(sign('sha256', tbs, privateKey)));
  const pem = (label: string, b: Buffer) =>
    `-----BEGIN ${label}-----\n${b
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n')}\n-----END ${label}-----\n`;
  return {
    cert: pem('CERTIFICATE', der),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

// STUN messages (RFC 8489 §5, §14): the Binding request this client sends and the decoder for
// the answers it gets, with the RFC 5780 attributes NAT behaviour discovery needs. Every check a
// hostile or broken peer could trip throws a StunError with a code; nothing else escapes.
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { StunError } from './errors.js';

export const MAGIC_COOKIE = 0x2112a442;
export const HEADER_BYTES = 20;
const FINGERPRINT_XOR = 0x5354554e;

/** Message types: method Binding (0x001) in each class (RFC 8489 §5: class bits C1 = 0x100, C0 = 0x010). */
export const BINDING_REQUEST = 0x0001;
export const BINDING_SUCCESS = 0x0101;
export const BINDING_ERROR = 0x0111;
const METHOD_MASK = 0x3eef;
const CLASS_MASK = 0x0110;
const CLASS_SUCCESS = 0x0100;
const CLASS_ERROR = 0x0110;

export const ATTR = {
  MAPPED_ADDRESS: 0x0001,
  RESPONSE_ADDRESS: 0x0002,
  CHANGE_REQUEST: 0x0003,
  SOURCE_ADDRESS: 0x0004,
  CHANGED_ADDRESS: 0x0005,
  USERNAME: 0x0006,
  PASSWORD: 0x0007,
  MESSAGE_INTEGRITY: 0x0008,
  ERROR_CODE: 0x0009,
  UNKNOWN_ATTRIBUTES: 0x000a,
  REFLECTED_FROM: 0x000b,
  REALM: 0x0014,
  NONCE: 0x0015,
  MESSAGE_INTEGRITY_SHA256: 0x001c,
  PASSWORD_ALGORITHM: 0x001d,
  USERHASH: 0x001e,
  XOR_MAPPED_ADDRESS: 0x0020,
  PADDING: 0x0026,
  RESPONSE_PORT: 0x0027,
  SOFTWARE: 0x8022,
  FINGERPRINT: 0x8028,
  RESPONSE_ORIGIN: 0x802b,
  OTHER_ADDRESS: 0x802c,
} as const;

/**
 * Comprehension-required types (below 0x8000) an answer may carry without failing the
 * transaction: the ones read here, the authentication ones (ignored: this client sends no
 * credentials) and RFC 3489's and RFC 5780's, which old and discovery-capable servers send.
 */
const KNOWN_REQUIRED = new Set<number>([
  ATTR.MAPPED_ADDRESS,
  ATTR.RESPONSE_ADDRESS,
  ATTR.CHANGE_REQUEST,
  ATTR.SOURCE_ADDRESS,
  ATTR.CHANGED_ADDRESS,
  ATTR.USERNAME,
  ATTR.PASSWORD,
  ATTR.MESSAGE_INTEGRITY,
  ATTR.ERROR_CODE,
  ATTR.UNKNOWN_ATTRIBUTES,
  ATTR.REFLECTED_FROM,
  ATTR.REALM,
  ATTR.NONCE,
  ATTR.MESSAGE_INTEGRITY_SHA256,
  ATTR.PASSWORD_ALGORITHM,
  ATTR.USERHASH,
  ATTR.XOR_MAPPED_ADDRESS,
  ATTR.PADDING,
  ATTR.RESPONSE_PORT,
]);

export interface StunAddress {
  family: 4 | 6;
  address: string;
  port: number;
}

export interface StunAttribute {
  type: number;
  value: Buffer;
}

export interface BindingRequestOptions {
  /** 12 bytes; random when absent. */
  transactionId?: Buffer;
  /** RFC 5780 CHANGE-REQUEST: answer from the alternate IP address. */
  changeIp?: boolean;
  /** RFC 5780 CHANGE-REQUEST: answer from the alternate port. */
  changePort?: boolean;
  /** SOFTWARE attribute (at most 763 bytes of UTF-8 are sent). */
  software?: string;
  /** Append FINGERPRINT (default true). */
  fingerprint?: boolean;
}

/** A decoded message: header fields and the attributes in order, values not yet read. */
export interface StunMessage {
  type: number;
  transactionId: Buffer;
  attributes: StunAttribute[];
  /** Whether a FINGERPRINT was present (it was verified, or decoding threw). */
  fingerprint: boolean;
}

/** What a Binding answer says, read from its attributes. */
export interface BindingResponse {
  kind: 'success' | 'error';
  transactionId: Buffer;
  /** XOR-MAPPED-ADDRESS, else MAPPED-ADDRESS (servers older than RFC 5389). */
  mapped?: StunAddress;
  /** OTHER-ADDRESS (RFC 5780), else CHANGED-ADDRESS (RFC 3489). */
  otherAddress?: StunAddress;
  /** RESPONSE-ORIGIN (RFC 5780), else SOURCE-ADDRESS (RFC 3489). */
  responseOrigin?: StunAddress;
  /** ERROR-CODE of an error answer: class * 100 + number, and the reason phrase. */
  error?: { status: number; reason: string };
  software?: string;
  fingerprint: boolean;
}

export function newTransactionId(): Buffer {
  return randomBytes(12);
}

/** The FINGERPRINT value of `bytes` (the message up to the attribute, its length field already counting it). */
export function fingerprintOf(bytes: Buffer): number {
  return (crc32(bytes) ^ FINGERPRINT_XOR) >>> 0;
}

/** A message of `type` with `attributes` (values padded to 4 bytes), FINGERPRINT appended when asked. */
export function encodeMessage(
  type: number,
  transactionId: Buffer,
  attributes: readonly StunAttribute[],
  fingerprint = true,
): Buffer {
  if (transactionId.length !== 12) throw new StunError('badAttribute', 'a transaction id has 12 bytes');
  const parts: Buffer[] = [];
  for (const a of attributes) {
    const head = Buffer.alloc(4);
    head.writeUInt16BE(a.type, 0);
    head.writeUInt16BE(a.value.length, 2);
    parts.push(head, a.value, Buffer.alloc((4 - (a.value.length % 4)) % 4));
  }
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(body.length + (fingerprint ? 8 : 0), 2);
  header.writeUInt32BE(MAGIC_COOKIE, 4);
  transactionId.copy(header, 8);
  const message = Buffer.concat([header, body]);
  if (!fingerprint) return message;
  const fp = Buffer.alloc(8);
  fp.writeUInt16BE(ATTR.FINGERPRINT, 0);
  fp.writeUInt16BE(4, 2);
  fp.writeUInt32BE(fingerprintOf(message), 4);
  return Buffer.concat([message, fp]);
}

/** A Binding request; `transactionId` is what the answer must carry. */
export function encodeBindingRequest(opts: BindingRequestOptions = {}): { transactionId: Buffer; bytes: Buffer } {
  const transactionId = opts.transactionId ?? newTransactionId();
  const attributes: StunAttribute[] = [];
  // Only when asked: CHANGE-REQUEST is comprehension-required, and a server without RFC 5780
  // answers 420 to it even with both flags clear.
  if (opts.changeIp || opts.changePort) {
    const v = Buffer.alloc(4);
    v.writeUInt32BE((opts.changeIp ? 0x04 : 0) | (opts.changePort ? 0x02 : 0));
    attributes.push({ type: ATTR.CHANGE_REQUEST, value: v });
  }
  if (opts.software) attributes.push({ type: ATTR.SOFTWARE, value: utf8Prefix(opts.software, 763) });
  return { transactionId, bytes: encodeMessage(BINDING_REQUEST, transactionId, attributes, opts.fingerprint ?? true) };
}

/** At most `max` bytes of UTF-8 of `s`, never cutting a character. */
function utf8Prefix(s: string, max: number): Buffer {
  const b = Buffer.from(s, 'utf8');
  if (b.length <= max) return b;
  let end = max;
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
  return b.subarray(0, end);
}

/** An address attribute value (MAPPED-ADDRESS form, or XOR-MAPPED-ADDRESS with `xor`). */
export function encodeAddress(addr: StunAddress, transactionId?: Buffer): Buffer {
  const raw = addr.family === 4 ? ipv4Bytes(addr.address) : ipv6Bytes(addr.address);
  const v = Buffer.alloc(4 + raw.length);
  v[1] = addr.family === 4 ? 0x01 : 0x02;
  v.writeUInt16BE(transactionId ? addr.port ^ (MAGIC_COOKIE >>> 16) : addr.port, 2);
  if (transactionId) xorInPlace(raw, transactionId);
  raw.copy(v, 4);
  return v;
}

/**
 * Cheap check whether a datagram is a STUN message (RFC 8489 §5/§7): top two bits zero, the
 * magic cookie, a length that is a multiple of 4 and exactly the rest of the packet. Used to tell
 * STUN answers from forwarded payload on a shared socket.
 */
export function looksLikeStun(buf: Buffer): boolean {
  if (buf.length < HEADER_BYTES || (buf[0] & 0xc0) !== 0) return false;
  if (buf.readUInt32BE(4) !== MAGIC_COOKIE) return false;
  const len = buf.readUInt16BE(2);
  return len % 4 === 0 && HEADER_BYTES + len === buf.length;
}

/** The header and attributes of one whole message; FINGERPRINT verified when present. */
export function decodeMessage(buf: Buffer): StunMessage {
  if (buf.length < HEADER_BYTES) {
    throw new StunError('truncated', `STUN message too short (${buf.length} bytes)`, { bytes: buf.length });
  }
  if ((buf[0] & 0xc0) !== 0 || buf.readUInt32BE(4) !== MAGIC_COOKIE) {
    throw new StunError('notStun', 'not a STUN message (no magic cookie)');
  }
  const len = buf.readUInt16BE(2);
  if (len % 4 !== 0) {
    throw new StunError('badLength', `STUN length ${len} is not a multiple of 4`, { length: len });
  }
  if (HEADER_BYTES + len > buf.length) {
    throw new StunError('truncated', `STUN message declares ${len} bytes, ${buf.length - HEADER_BYTES} arrived`, {
      length: len,
      bytes: buf.length - HEADER_BYTES,
    });
  }
  if (HEADER_BYTES + len < buf.length) {
    throw new StunError(
      'badLength',
      `STUN message declares ${len} bytes, the packet has ${buf.length - HEADER_BYTES}`,
      {
        length: len,
        bytes: buf.length - HEADER_BYTES,
      },
    );
  }
  const attributes: StunAttribute[] = [];
  let fingerprint = false;
  let off = HEADER_BYTES;
  while (off < buf.length) {
    if (off + 4 > buf.length) throw new StunError('badAttribute', 'attribute header runs past the end');
    const type = buf.readUInt16BE(off);
    const vlen = buf.readUInt16BE(off + 2);
    if (off + 4 + vlen > buf.length) {
      throw new StunError('badAttribute', `attribute 0x${hex4(type)} runs past the end of the message`, {
        type: hex4(type),
      });
    }
    const value = buf.subarray(off + 4, off + 4 + vlen);
    const next = off + 4 + vlen + ((4 - (vlen % 4)) % 4);
    if (type === ATTR.FINGERPRINT) {
      if (vlen !== 4 || next !== buf.length) {
        throw new StunError('badFingerprint', 'FINGERPRINT is malformed or not the last attribute');
      }
      if (value.readUInt32BE(0) !== fingerprintOf(buf.subarray(0, off))) {
        throw new StunError('badFingerprint', 'FINGERPRINT does not match the message');
      }
      fingerprint = true;
    } else {
      attributes.push({ type, value });
    }
    off = next;
  }
  return { type: buf.readUInt16BE(0), transactionId: Buffer.from(buf.subarray(8, 20)), attributes, fingerprint };
}

/**
 * A Binding success or error answer to the request with `transactionId`. Throws for anything
 * else: malformed, another transaction, not a Binding response, an unknown comprehension-required
 * attribute. An error answer is returned (kind 'error'); bindingResult turns it into a throw.
 */
export function decodeBindingResponse(buf: Buffer, transactionId: Buffer): BindingResponse {
  const msg = decodeMessage(buf);
  if (!msg.transactionId.equals(transactionId)) {
    throw new StunError('wrongTransaction', 'the answer is for another transaction');
  }
  const cls = msg.type & CLASS_MASK;
  if ((msg.type & METHOD_MASK) !== BINDING_REQUEST || (cls !== CLASS_SUCCESS && cls !== CLASS_ERROR)) {
    throw new StunError('notResponse', `message type 0x${hex4(msg.type)} is not a Binding response`, {
      type: hex4(msg.type),
    });
  }
  const out: BindingResponse = {
    kind: cls === CLASS_SUCCESS ? 'success' : 'error',
    transactionId: msg.transactionId,
    fingerprint: msg.fingerprint,
  };
  let mapped: StunAddress | undefined;
  let changed: StunAddress | undefined;
  let source: StunAddress | undefined;
  const unknown: string[] = [];
  let afterIntegrity = false;
  for (const { type, value } of msg.attributes) {
    // RFC 8489 §14.5/§14.6: attributes after MESSAGE-INTEGRITY(-SHA256) other than those and
    // FINGERPRINT are ignored (they are not covered by the integrity check).
    if (afterIntegrity && type !== ATTR.MESSAGE_INTEGRITY_SHA256) continue;
    switch (type) {
      case ATTR.XOR_MAPPED_ADDRESS:
        out.mapped ??= decodeAddress(value, type, msg.transactionId);
        break;
      case ATTR.MAPPED_ADDRESS:
        mapped ??= decodeAddress(value, type);
        break;
      case ATTR.OTHER_ADDRESS:
        out.otherAddress ??= decodeAddress(value, type);
        break;
      case ATTR.CHANGED_ADDRESS:
        changed ??= decodeAddress(value, type);
        break;
      case ATTR.RESPONSE_ORIGIN:
        out.responseOrigin ??= decodeAddress(value, type);
        break;
      case ATTR.SOURCE_ADDRESS:
        source ??= decodeAddress(value, type);
        break;
      case ATTR.ERROR_CODE:
        out.error ??= decodeErrorCode(value);
        break;
      case ATTR.SOFTWARE:
        out.software ??= value.toString('utf8');
        break;
      case ATTR.MESSAGE_INTEGRITY:
      case ATTR.MESSAGE_INTEGRITY_SHA256:
        afterIntegrity = true;
        break;
      default:
        if (type < 0x8000 && !KNOWN_REQUIRED.has(type)) unknown.push(`0x${hex4(type)}`);
    }
  }
  if (unknown.length > 0) {
    throw new StunError('unknownAttribute', `the answer carries unknown required attributes ${unknown.join(', ')}`, {
      types: unknown,
    });
  }
  out.mapped ??= mapped;
  out.otherAddress ??= changed;
  out.responseOrigin ??= source;
  return out;
}

/** The mapped address of a Binding answer; throws 'errorResponse' / 'noMappedAddress'. */
export function bindingResult(r: BindingResponse): StunAddress {
  if (r.kind === 'error') {
    const status = r.error?.status ?? 0;
    const reason = r.error?.reason ?? '';
    throw new StunError('errorResponse', `the STUN server answered error ${status}${reason ? ` (${reason})` : ''}`, {
      status,
      reason,
    });
  }
  if (!r.mapped) throw new StunError('noMappedAddress', 'the STUN answer has no mapped address');
  return r.mapped;
}

function decodeAddress(v: Buffer, type: number, transactionId?: Buffer): StunAddress {
  const bad = (why: string) =>
    new StunError('badAttribute', `attribute 0x${hex4(type)}: ${why}`, { type: hex4(type), why });
  if (v.length < 4) throw bad('too short for an address');
  const family = v[1];
  if (family !== 0x01 && family !== 0x02) throw bad(`unknown address family ${family}`);
  const size = family === 0x01 ? 4 : 16;
  if (v.length !== 4 + size) throw bad(`length ${v.length} does not fit the address family`);
  let port = v.readUInt16BE(2);
  const raw = Buffer.from(v.subarray(4));
  if (transactionId) {
    port ^= MAGIC_COOKIE >>> 16;
    xorInPlace(raw, transactionId);
  }
  return family === 0x01
    ? { family: 4, address: [...raw].join('.'), port }
    : { family: 6, address: formatIpv6(raw), port };
}

function decodeErrorCode(v: Buffer): { status: number; reason: string } {
  if (v.length < 4) throw new StunError('badAttribute', 'ERROR-CODE too short', { type: hex4(ATTR.ERROR_CODE) });
  return { status: (v[2] & 0x07) * 100 + v[3], reason: v.subarray(4).toString('utf8') };
}

/** XOR with the magic cookie, then the transaction id (RFC 8489 §14.2: IPv6 uses both). */
function xorInPlace(raw: Buffer, transactionId: Buffer): void {
  const key = Buffer.alloc(16);
  key.writeUInt32BE(MAGIC_COOKIE, 0);
  transactionId.copy(key, 4);
  for (let i = 0; i < raw.length; i++) raw[i] ^= key[i];
}

function ipv4Bytes(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

/** 16 bytes of an IPv6 literal (no zone, no embedded IPv4: the encoder only writes test answers). */
function ipv6Bytes(ip: string): Buffer {
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const b = Buffer.alloc(16);
  for (const [i, g] of groups.entries()) b.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return b;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
export function formatIpv6(b: Buffer): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(b.readUInt16BE(i));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const text = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (best < 0) return text(groups);
  return `${text(groups.slice(0, best))}::${text(groups.slice(best + bestLen))}`;
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

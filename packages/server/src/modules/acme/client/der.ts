// A small DER writer (for the CSR) and reader (for a certificate's serial and Authority Key
// Identifier, which ARI's certID needs and node:crypto's X509Certificate does not expose).
// Only what ACME needs: definite lengths, low tag numbers, no indefinite forms.

/** Encodes one TLV: `tag` is the whole identifier octet (class, constructed bit, number). */
export function tlv(tag: number, ...content: Uint8Array[]): Buffer {
  const body = Buffer.concat(content);
  const len = body.length;
  let head: Buffer;
  if (len < 0x80) head = Buffer.from([tag, len]);
  else {
    const bytes: number[] = [];
    for (let n = len; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
    head = Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([head, body]);
}

export const seq = (...items: Uint8Array[]) => tlv(0x30, ...items);
export const set = (...items: Uint8Array[]) => tlv(0x31, ...items);
export const nullValue = () => Buffer.from([0x05, 0x00]);
export const octetString = (b: Uint8Array) => tlv(0x04, b);
export const utf8String = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
/** BIT STRING with no unused bits (signatures, keys). */
export const bitString = (b: Uint8Array) => tlv(0x03, Buffer.from([0]), b);

/** A non-negative INTEGER from a small number. */
export function integer(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  if (bytes.length === 0 || bytes[0] & 0x80) bytes.unshift(0);
  return tlv(0x02, Buffer.from(bytes));
}

/** OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [arcs[0] * 40 + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** One decoded TLV: its identifier octet, its content, and where the next sibling starts. */
export interface DerNode {
  tag: number;
  content: Buffer;
  end: number;
}

/** Reads the TLV starting at `offset` of `buf`. */
export function readTlv(buf: Buffer, offset = 0): DerNode {
  if (offset + 2 > buf.length) throw new Error('DER: truncated');
  const tag = buf[offset];
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: high tag numbers are not supported');
  let len = buf[offset + 1];
  let start = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('DER: unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i];
    start += n;
  }
  const end = start + len;
  if (end > buf.length) throw new Error('DER: truncated');
  return { tag, content: buf.subarray(start, end), end };
}

/** The children of a constructed node. */
export function children(node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  for (let at = 0; at < node.content.length; ) {
    const child = readTlv(node.content, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

/** Dotted form of an OBJECT IDENTIFIER's content. */
export function oidText(content: Buffer): string {
  const arcs: number[] = [];
  let v = 0;
  for (const byte of content) {
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(v);
      v = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  const top = first < 80 ? Math.floor(first / 40) : 2;
  return [top, first - top * 40, ...arcs].join('.');
}

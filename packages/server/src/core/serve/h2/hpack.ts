// HPACK (RFC 7541) for the HTTP/2 engine: a full decoder for request header blocks (static and
// dynamic table, Huffman strings, table size updates) and a small encoder for answers. The
// encoder keeps no dynamic table: every field goes out as a literal that is not indexed (with the
// static table's name where there is one), so the peer's table size setting never matters to us
// and the decoder on the other side has nothing to keep in step.
import { huffmanDecode } from './huffman.js';

/** RFC 7541 Appendix A (index 1 is the first entry). */
const STATIC: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];
const STATIC_COUNT = STATIC.length;

/** Each entry's size in the table: its octets plus 32 (RFC 7541 §4.1). */
const entrySize = (name: string, value: string) => name.length + value.length + 32;

/** A malformed header block: the connection must end with COMPRESSION_ERROR (RFC 9113 §4.3). */
export class HpackError extends Error {}

/** Called per decoded field, in order. */
export type FieldSink = (name: string, value: string) => void;

/**
 * One connection's request-side decoder. Its dynamic table lives as long as the connection, so a
 * block must always be decoded to the end, even one whose request is refused.
 */
export class HpackDecoder {
  /** Newest first: entries[0] is index 62. */
  private names: string[] = [];
  private values: string[] = [];
  private size = 0;
  /** The size the encoder chose (≤ maxAllowed), by a table size update. */
  private max: number;

  /** `maxAllowed`: our SETTINGS_HEADER_TABLE_SIZE. */
  constructor(private readonly maxAllowed = 4096) {
    this.max = maxAllowed;
  }

  /**
   * Decode `block`, handing each field to `sink` while the header list (RFC 9113 §6.5.2 sizes)
   * stays within `limit`. Past it, fields are no longer made or handed over, but the block is
   * still read to its end so the table stays in step: a block of 1-byte references to one big
   * entry (an "HPACK bomb") then costs a pass over its bytes, not a string per reference.
   * Answers false when the list went beyond `limit`.
   */
  decode(block: Buffer, sink: FieldSink, limit = Number.POSITIVE_INFINITY): boolean {
    let pos = 0;
    const end = block.length;
    let fieldsSeen = false;
    let sizeUpdates = 0;
    let listSize = 0;
    let over = false;
    // Integers and strings: read with a cursor; `pos` moves past what was read.
    const int = (prefixBits: number): number => {
      const mask = (1 << prefixBits) - 1;
      let v = block[pos++] & mask;
      if (v < mask) return v;
      let shift = 0;
      for (;;) {
        if (pos >= end) throw new HpackError('truncated integer');
        const b = block[pos++];
        v += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (!(b & 0x80)) break;
        if (shift > 28) throw new HpackError('integer too large');
      }
      if (v > 0x7fffffff) throw new HpackError('integer too large');
      return v;
    };
    const str = (): string => {
      if (pos >= end) throw new HpackError('truncated string');
      const huffman = (block[pos] & 0x80) !== 0;
      const len = int(7);
      if (pos + len > end) throw new HpackError('truncated string');
      const from = pos;
      pos += len;
      if (!huffman) return block.toString('latin1', from, pos);
      try {
        return huffmanDecode(block, from, pos);
      } catch (err) {
        throw new HpackError((err as Error).message);
      }
    };
    /** Step over a string nobody will read (past the limit, not entering the table). */
    const skipStr = (): void => {
      if (pos >= end) throw new HpackError('truncated string');
      const len = int(7);
      if (pos + len > end) throw new HpackError('truncated string');
      pos += len;
    };
    const give = (name: string, value: string): void => {
      if (over) return;
      listSize += name.length + value.length + 32;
      if (listSize > limit) over = true;
      else sink(name, value);
    };
    while (pos < end) {
      const b = block[pos];
      if (b & 0x80) {
        // Indexed field.
        const index = int(7);
        if (over) this.check(index);
        else this.emit(index, give);
        fieldsSeen = true;
      } else if (b & 0x40) {
        // Literal with incremental indexing: always read whole, the table needs it.
        const index = int(6);
        const name = index ? this.nameAt(index) : str();
        const value = str();
        this.add(name, value);
        give(name, value);
        fieldsSeen = true;
      } else if (b & 0x20) {
        // Dynamic table size update: only before the first field (RFC 7541 §4.2), and at most
        // two (the smallest size since the last block, then the final one): more is abuse.
        if (fieldsSeen) throw new HpackError('table size update after a field');
        if (++sizeUpdates > 2) throw new HpackError('more than two table size updates');
        const size = int(5);
        if (size > this.maxAllowed) throw new HpackError('table size update beyond the limit');
        this.max = size;
        this.evict(0);
      } else {
        // Literal without indexing (0000) or never indexed (0001).
        const index = int(4);
        if (over) {
          if (index) this.nameAt(index);
          else skipStr();
          skipStr();
        } else {
          const name = index ? this.nameAt(index) : str();
          give(name, str());
        }
        fieldsSeen = true;
      }
    }
    return !over;
  }

  /** A valid index (past the list limit: nothing is made of it). */
  private check(index: number): void {
    if (index === 0) throw new HpackError('index 0');
    if (index > STATIC_COUNT + this.names.length) throw new HpackError(`index ${index} beyond the table`);
  }

  private emit(index: number, sink: FieldSink): void {
    if (index === 0) throw new HpackError('index 0');
    if (index <= STATIC_COUNT) {
      const e = STATIC[index - 1];
      sink(e[0], e[1]);
      return;
    }
    const i = index - STATIC_COUNT - 1;
    if (i >= this.names.length) throw new HpackError(`index ${index} beyond the table`);
    sink(this.names[i], this.values[i]);
  }

  private nameAt(index: number): string {
    if (index <= STATIC_COUNT) return STATIC[index - 1][0];
    const i = index - STATIC_COUNT - 1;
    if (i >= this.names.length) throw new HpackError(`index ${index} beyond the table`);
    return this.names[i];
  }

  private add(name: string, value: string): void {
    const size = entrySize(name, value);
    // An entry larger than the table empties it and is not added (RFC 7541 §4.4).
    this.evict(size);
    if (size > this.max) return;
    this.names.unshift(name);
    this.values.unshift(value);
    this.size += size;
  }

  /** Drop the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.names.length && this.size + room > this.max) {
      const name = this.names.pop() as string;
      const value = this.values.pop() as string;
      this.size -= entrySize(name, value);
    }
  }
}

/** Static-table index per name (the first entry of that name), for literal fields with an indexed name. */
const NAME_INDEX = new Map<string, number>();
for (let i = STATIC_COUNT - 1; i >= 0; i--) NAME_INDEX.set(STATIC[i][0], i + 1);

/** Fully indexed :status fields (RFC 7541 Appendix A, entries 8-14). */
const STATUS_INDEX: Record<number, number> = { 200: 8, 204: 9, 206: 10, 304: 11, 400: 12, 404: 13, 500: 14 };

/**
 * Encode an answer's header block: :status, then the fields. Names must be lower-case already
 * (HTTP/2 forbids upper case); values are written as latin1, as node:http reads them.
 */
export function encodeAnswer(status: number, fields: Array<[string, string]>): Buffer {
  let size = 5;
  for (const [name, value] of fields) size += name.length + value.length + 12;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  const int = (first: number, prefixBits: number, v: number) => {
    const mask = (1 << prefixBits) - 1;
    if (v < mask) {
      out[pos++] = first | v;
      return;
    }
    out[pos++] = first | mask;
    v -= mask;
    while (v >= 0x80) {
      out[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[pos++] = v;
  };
  const str = (s: string) => {
    int(0, 7, s.length);
    pos += out.write(s, pos, 'latin1');
  };
  const indexed = STATUS_INDEX[status];
  if (indexed) out[pos++] = 0x80 | indexed;
  else {
    int(0, 4, 8); // literal, not indexed, name ':status' (entry 8)
    str(String(status));
  }
  for (const [name, value] of fields) {
    const index = NAME_INDEX.get(name);
    if (index) int(0, 4, index);
    else {
      out[pos++] = 0;
      str(name);
    }
    str(value);
  }
  return out.subarray(0, pos);
}

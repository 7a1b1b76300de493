// HPACK against the examples of RFC 7541 Appendix C (requests with and without Huffman coding,
// answers with a 256-octet table that evicts), Huffman edge cases, and the answer encoder read
// back by the decoder.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeAnswer, HpackDecoder, HpackError } from './hpack.js';
import { huffmanDecode } from './huffman.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

function decodeAll(d: HpackDecoder, block: Buffer): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  d.decode(block, (n, v) => out.push([n, v]));
  return out;
}

describe('HPACK decoder (RFC 7541 Appendix C)', () => {
  const first: Array<[string, string]> = [
    [':method', 'GET'],
    [':scheme', 'http'],
    [':path', '/'],
    [':authority', 'www.example.com'],
  ];
  const second: Array<[string, string]> = [...first, ['cache-control', 'no-cache']];
  const third: Array<[string, string]> = [
    [':method', 'GET'],
    [':scheme', 'https'],
    [':path', '/index.html'],
    [':authority', 'www.example.com'],
    ['custom-key', 'custom-value'],
  ];

  it('C.3: requests without Huffman coding, one table across them', () => {
    const d = new HpackDecoder();
    expect(decodeAll(d, hex('8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d'))).toEqual(first);
    expect(decodeAll(d, hex('8286 84be 5808 6e6f 2d63 6163 6865'))).toEqual(second);
    expect(decodeAll(d, hex('8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65'))).toEqual(
      third,
    );
  });

  it('C.4: the same requests with Huffman coding', () => {
    const d = new HpackDecoder();
    expect(decodeAll(d, hex('8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff'))).toEqual(first);
    expect(decodeAll(d, hex('8286 84be 5886 a8eb 1064 9cbf'))).toEqual(second);
    expect(decodeAll(d, hex('8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf'))).toEqual(third);
  });

  it('C.5: answers in a 256-octet table, the oldest entries evicted', () => {
    const d = new HpackDecoder(256);
    const date1 = 'Mon, 21 Oct 2013 20:13:21 GMT';
    const loc = 'https://www.example.com';
    expect(
      decodeAll(
        d,
        hex(`4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32
             3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d`),
      ),
    ).toEqual([
      [':status', '302'],
      ['cache-control', 'private'],
      ['date', date1],
      ['location', loc],
    ]);
    // :status 307 goes in, :status 302 (the oldest) goes out; c1 c0 bf still reach the others.
    expect(decodeAll(d, hex('4803 3330 37c1 c0bf'))).toEqual([
      [':status', '307'],
      ['cache-control', 'private'],
      ['date', date1],
      ['location', loc],
    ]);
    expect(
      decodeAll(
        d,
        hex(`88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970
             7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61
             6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31`),
      ),
    ).toEqual([
      [':status', '200'],
      ['cache-control', 'private'],
      ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
      ['location', loc],
      ['content-encoding', 'gzip'],
      ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'],
    ]);
    // Three entries are left (62-64): index 65 is an error, not a wrong field.
    expect(decodeAll(d, hex('c0'))).toEqual([['date', 'Mon, 21 Oct 2013 20:13:22 GMT']]);
    expect(() => decodeAll(d, hex('c1'))).toThrow(HpackError);
  });

  it('refuses index 0, a table size update above the limit or after a field, and truncated input', () => {
    const d = new HpackDecoder(4096);
    expect(() => decodeAll(d, hex('80'))).toThrow(HpackError);
    expect(() => decodeAll(new HpackDecoder(4096), hex('3fe21f'))).toThrow(/limit/); // 4096 + 1
    expect(() => decodeAll(new HpackDecoder(4096), hex('82 20'))).toThrow(/after a field/);
    expect(() => decodeAll(new HpackDecoder(4096), hex('41 0f 7777'))).toThrow(/truncated/);
    expect(() => decodeAll(new HpackDecoder(4096), hex('ff ff ff ff ff ff'))).toThrow(/integer/);
    // A size update to 0 empties the table: the entry added before is gone.
    const e = new HpackDecoder(4096);
    decodeAll(e, hex('4003 6162 6303 7879 7a'));
    expect(decodeAll(e, hex('be'))).toEqual([['abc', 'xyz']]);
    expect(() => decodeAll(e, hex('20 be'))).toThrow(HpackError);
  });

  it('throws nothing but HpackError on random input', () => {
    for (let i = 0; i < 3000; i++) {
      const d = new HpackDecoder();
      try {
        d.decode(randomBytes(1 + (i % 40)), () => undefined);
      } catch (err) {
        expect(err).toBeInstanceOf(HpackError);
      }
    }
  });
});

describe('Huffman decoding', () => {
  it('decodes the RFC strings and rejects EOS and bad padding', () => {
    expect(huffmanDecode(hex('f1e3c2e5f23a6ba0ab90f4ff'), 0, 12)).toBe('www.example.com');
    expect(huffmanDecode(hex('1f'), 0, 1)).toBe('a'); // 00011 + padding 111
    expect(() => huffmanDecode(hex('18'), 0, 1)).toThrow(/padding/); // padding of zeros
    expect(() => huffmanDecode(hex('ffff'), 0, 2)).toThrow(/padding/); // 16 one-bits: too long
    expect(() => huffmanDecode(hex('ffffffff'), 0, 4)).toThrow(/EOS/);
  });
});

describe('answer encoder', () => {
  it('is read back by the decoder: indexed and literal :status, static and new names, long values', () => {
    const fields: Array<[string, string]> = [
      ['content-type', 'text/html; charset=utf-8'],
      ['x-custom', 'v'.repeat(300)],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['www-authenticate', 'Basic realm="x"'],
    ];
    for (const status of [200, 204, 302, 404, 431, 502]) {
      const out = decodeAll(new HpackDecoder(), encodeAnswer(status, fields));
      expect(out).toEqual([[':status', String(status)], ...fields]);
    }
  });
});

describe('HPACK decoder limits (issue 12 §3)', () => {
  /** A literal with incremental indexing: `name` (new) = `value`. */
  const indexed = (name: string, value: string) =>
    Buffer.concat([
      Buffer.from([0x40, name.length]),
      Buffer.from(name),
      Buffer.from([0x7f, value.length - 127]),
      Buffer.from(value),
    ]);

  it('stops handing fields over at the list limit, reads the block to its end, and keeps the table in step', () => {
    const d = new HpackDecoder();
    const value = 'v'.repeat(200);
    // Entry (232 octets) then 1000 references to it (index 62): about 232 KB of fields.
    const bomb = Buffer.concat([indexed('x-bomb', value), Buffer.alloc(1000, 0xbe)]);
    const seen: string[] = [];
    expect(d.decode(bomb, (n) => seen.push(n), 4096)).toBe(false);
    // 4096 / 238 octets per field: 17 fields fit, nothing after the limit.
    expect(seen.length).toBe(17);
    // The entry is in the table for the next block.
    const next: Array<[string, string]> = [];
    expect(d.decode(Buffer.from([0xbe]), (n, v) => next.push([n, v]), 4096)).toBe(true);
    expect(next).toEqual([['x-bomb', value]]);
  });

  it('throws on a third table size update in one block; two are taken', () => {
    const d = new HpackDecoder();
    expect(() => d.decode(Buffer.from([0x20, 0x3f, 0x81, 0x1f, 0x82]), () => undefined)).not.toThrow();
    expect(() => d.decode(Buffer.from([0x20, 0x20, 0x20, 0x82]), () => undefined)).toThrow(HpackError);
  });
});

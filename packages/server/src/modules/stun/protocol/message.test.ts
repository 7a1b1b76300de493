// The STUN codec against the RFC 5769 test vectors (written by others, so the decoder is not only
// checked against our own encoder) and against garbage: every bad input is a coded StunError.
import { describe, expect, it } from 'vitest';
import { StunError } from './errors.js';
import {
  ATTR,
  BINDING_ERROR,
  BINDING_SUCCESS,
  bindingResult,
  decodeBindingResponse,
  decodeMessage,
  encodeAddress,
  encodeBindingRequest,
  encodeMessage,
  fingerprintOf,
  formatIpv6,
  looksLikeStun,
  MAGIC_COOKIE,
} from './message.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

// RFC 5769 §2.2: sample IPv4 response (SOFTWARE, XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY, FINGERPRINT).
const IPV4_RESPONSE = hex(`
  0101003c 2112a442 b7e7a701 bc34d686 fa87dfae
  8022000b 74657374 20766563 746f7220
  00200008 0001a147 e112a643
  00080014 2b91f599 fd9e90c3 8c7489f9 2af9ba53 f06be7d7
  80280004 c07d4c96`);

// RFC 5769 §2.3: sample IPv6 response.
const IPV6_RESPONSE = hex(`
  01010048 2112a442 b7e7a701 bc34d686 fa87dfae
  8022000b 74657374 20766563 746f7220
  00200014 0002a147 0113a9fa a5d3f179 bc25f4b5 bed2b9d9
  00080014 a382954e 4be67bf1 1784c97c 8292c275 bfe3ed41
  80280004 c8fb0b4c`);

const VECTOR_TXN = hex('b7e7a701bc34d686fa87dfae');

/** The StunError `fn` throws; fails the test when it throws nothing or something else. */
function stunErrorOf(fn: () => unknown): StunError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StunError);
    return err as StunError;
  }
  throw new Error('expected a StunError, nothing was thrown');
}

/** Deterministic bytes (xorshift32), so a failing case can be replayed. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

describe('RFC 5769 test vectors', () => {
  it('§2.2 IPv4 response: FINGERPRINT verifies, XOR-MAPPED-ADDRESS is 192.0.2.1:32853', () => {
    expect(looksLikeStun(IPV4_RESPONSE)).toBe(true);
    const r = decodeBindingResponse(IPV4_RESPONSE, VECTOR_TXN);
    expect(r.kind).toBe('success');
    expect(r.fingerprint).toBe(true);
    expect(r.software).toBe('test vector');
    expect(bindingResult(r)).toEqual({ family: 4, address: '192.0.2.1', port: 32853 });
  });

  it('§2.3 IPv6 response: FINGERPRINT verifies, XOR-MAPPED-ADDRESS is 2001:db8:1234:5678:11:2233:4455:6677 port 32853', () => {
    const r = decodeBindingResponse(IPV6_RESPONSE, VECTOR_TXN);
    expect(r.fingerprint).toBe(true);
    expect(r.mapped).toEqual({ family: 6, address: '2001:db8:1234:5678:11:2233:4455:6677', port: 32853 });
  });

  it('a flipped bit anywhere before the FINGERPRINT value is caught', () => {
    // From the first attribute to the FINGERPRINT attribute's header (a damaged type there makes
    // it an unknown optional attribute: a message without FINGERPRINT, which is allowed).
    for (let i = 20; i < IPV4_RESPONSE.length - 8; i++) {
      const bad = Buffer.from(IPV4_RESPONSE);
      bad[i] ^= 0x01;
      const e = stunErrorOf(() => decodeMessage(bad));
      // Flipping a length byte of an attribute can derail the walk before FINGERPRINT is reached.
      expect(['badFingerprint', 'badAttribute']).toContain(e.code);
    }
  });
});

describe('encoder', () => {
  it('a Binding request: type 0x0001, cookie, 12-byte random id, FINGERPRINT that verifies', () => {
    const a = encodeBindingRequest();
    const b = encodeBindingRequest();
    expect(a.transactionId).toHaveLength(12);
    expect(a.transactionId.equals(b.transactionId)).toBe(false);
    expect(a.bytes.readUInt16BE(0)).toBe(0x0001);
    expect(a.bytes.readUInt32BE(4)).toBe(MAGIC_COOKIE);
    expect(a.bytes.subarray(8, 20).equals(a.transactionId)).toBe(true);
    expect(looksLikeStun(a.bytes)).toBe(true);
    const m = decodeMessage(a.bytes);
    expect(m.fingerprint).toBe(true);
    expect(m.attributes).toEqual([]);
  });

  it('CHANGE-REQUEST flags (RFC 5780 §7.2) only when asked; SOFTWARE when given', () => {
    const flags = (o: { changeIp?: boolean; changePort?: boolean }) =>
      decodeMessage(encodeBindingRequest(o).bytes)
        .attributes.find((a) => a.type === ATTR.CHANGE_REQUEST)
        ?.value.readUInt32BE(0);
    expect(flags({})).toBeUndefined();
    expect(flags({ changeIp: true })).toBe(0x04);
    expect(flags({ changePort: true })).toBe(0x02);
    expect(flags({ changeIp: true, changePort: true })).toBe(0x06);
    const soft = decodeMessage(encodeBindingRequest({ software: 'Lucky 1.0' }).bytes).attributes;
    expect(soft).toEqual([{ type: ATTR.SOFTWARE, value: Buffer.from('Lucky 1.0') }]);
    // SOFTWARE is cut at 763 bytes without splitting a character.
    const long = decodeMessage(encodeBindingRequest({ software: 'é'.repeat(500) }).bytes).attributes[0];
    expect(long.value.length).toBe(762);
    expect(long.value.toString('utf8')).toBe('é'.repeat(381));
  });

  it('FINGERPRINT is CRC-32 of the message XOR 0x5354554e (the request without it, length counting it)', () => {
    const { bytes } = encodeBindingRequest({ fingerprint: false });
    expect(bytes).toHaveLength(20);
    const withFp = encodeBindingRequest({ transactionId: bytes.subarray(8, 20), fingerprint: true }).bytes;
    const head = Buffer.from(withFp.subarray(0, 20));
    expect(head.readUInt16BE(2)).toBe(8);
    expect(withFp.readUInt32BE(24)).toBe(fingerprintOf(head));
  });

  it('address attributes round-trip, IPv4 and IPv6, plain and XOR', () => {
    const txn = Buffer.alloc(12, 7);
    for (const addr of [
      { family: 4 as const, address: '203.0.113.9', port: 40000 },
      { family: 6 as const, address: 'fe80::1:2', port: 1 },
      { family: 6 as const, address: '2001:db8::', port: 65535 },
    ]) {
      const msg = encodeMessage(BINDING_SUCCESS, txn, [
        { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress(addr, txn) },
        { type: ATTR.OTHER_ADDRESS, value: encodeAddress(addr) },
      ]);
      const r = decodeBindingResponse(msg, txn);
      expect(r.mapped).toEqual(addr);
      expect(r.otherAddress).toEqual(addr);
    }
  });

  it('IPv6 text per RFC 5952', () => {
    const six = (h: string) => formatIpv6(hex(h));
    expect(six('00000000000000000000000000000001')).toBe('::1');
    expect(six('20010db8000000000001000000000001')).toBe('2001:db8::1:0:0:1');
    expect(six('20010db8000100000000000000000000')).toBe('2001:db8:1::');
    expect(six('20010db8000000010001000100010001')).toBe('2001:db8:0:1:1:1:1:1');
  });
});

describe('decoder fall-backs and answers', () => {
  const txn = Buffer.alloc(12, 3);
  const addr = (address: string, port: number) => ({ family: 4 as const, address, port });

  it('MAPPED-ADDRESS when there is no XOR-MAPPED-ADDRESS; CHANGED-ADDRESS and SOURCE-ADDRESS for RFC 3489 servers', () => {
    const msg = encodeMessage(
      BINDING_SUCCESS,
      txn,
      [
        { type: ATTR.MAPPED_ADDRESS, value: encodeAddress(addr('198.51.100.1', 1000)) },
        { type: ATTR.SOURCE_ADDRESS, value: encodeAddress(addr('192.0.2.1', 3478)) },
        { type: ATTR.CHANGED_ADDRESS, value: encodeAddress(addr('192.0.2.2', 3479)) },
      ],
      false,
    );
    const r = decodeBindingResponse(msg, txn);
    expect(r.fingerprint).toBe(false);
    expect(r.mapped).toEqual(addr('198.51.100.1', 1000));
    expect(r.responseOrigin).toEqual(addr('192.0.2.1', 3478));
    expect(r.otherAddress).toEqual(addr('192.0.2.2', 3479));
  });

  it('XOR-MAPPED-ADDRESS wins over MAPPED-ADDRESS, OTHER-ADDRESS over CHANGED-ADDRESS, RESPONSE-ORIGIN over SOURCE-ADDRESS', () => {
    const msg = encodeMessage(BINDING_SUCCESS, txn, [
      { type: ATTR.MAPPED_ADDRESS, value: encodeAddress(addr('10.0.0.1', 1)) },
      { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress(addr('198.51.100.1', 1000), txn) },
      { type: ATTR.CHANGED_ADDRESS, value: encodeAddress(addr('10.0.0.2', 2)) },
      { type: ATTR.OTHER_ADDRESS, value: encodeAddress(addr('192.0.2.2', 3479)) },
      { type: ATTR.SOURCE_ADDRESS, value: encodeAddress(addr('10.0.0.3', 3)) },
      { type: ATTR.RESPONSE_ORIGIN, value: encodeAddress(addr('192.0.2.1', 3478)) },
    ]);
    const r = decodeBindingResponse(msg, txn);
    expect(r.mapped).toEqual(addr('198.51.100.1', 1000));
    expect(r.otherAddress).toEqual(addr('192.0.2.2', 3479));
    expect(r.responseOrigin).toEqual(addr('192.0.2.1', 3478));
  });

  it('unknown comprehension-optional attributes are ignored; unknown comprehension-required ones fail', () => {
    const ok = encodeMessage(BINDING_SUCCESS, txn, [
      { type: 0xc001, value: Buffer.from('whatever') },
      { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress(addr('198.51.100.1', 1000), txn) },
    ]);
    expect(decodeBindingResponse(ok, txn).mapped).toEqual(addr('198.51.100.1', 1000));
    const required = encodeMessage(BINDING_SUCCESS, txn, [
      { type: 0x7001, value: Buffer.alloc(4) },
      { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress(addr('198.51.100.1', 1000), txn) },
    ]);
    const e = stunErrorOf(() => decodeBindingResponse(required, txn));
    expect(e.code).toBe('unknownAttribute');
    expect(e.params).toEqual({ types: ['0x7001'] });
  });

  it('an error answer: ERROR-CODE is class * 100 + number with its reason', () => {
    const value = Buffer.concat([Buffer.from([0, 0, 4, 20]), Buffer.from('Unknown Attribute')]);
    const msg = encodeMessage(BINDING_ERROR, txn, [{ type: ATTR.ERROR_CODE, value }]);
    const r = decodeBindingResponse(msg, txn);
    expect(r.kind).toBe('error');
    expect(r.error).toEqual({ status: 420, reason: 'Unknown Attribute' });
    const e = stunErrorOf(() => bindingResult(r));
    expect(e.code).toBe('errorResponse');
    expect(e.params).toEqual({ status: 420, reason: 'Unknown Attribute' });
    expect(e.message).toBe('the STUN server answered error 420 (Unknown Attribute)');
  });

  it('a success answer without a mapped address, another transaction, a request instead of an answer', () => {
    expect(
      stunErrorOf(() => bindingResult(decodeBindingResponse(encodeMessage(BINDING_SUCCESS, txn, []), txn))).code,
    ).toBe('noMappedAddress');
    expect(stunErrorOf(() => decodeBindingResponse(IPV4_RESPONSE, txn)).code).toBe('wrongTransaction');
    const req = encodeBindingRequest({ transactionId: txn }).bytes;
    expect(stunErrorOf(() => decodeBindingResponse(req, txn)).code).toBe('notResponse');
    // Another method's success (Allocate, 0x0103) is not a Binding answer.
    expect(stunErrorOf(() => decodeBindingResponse(encodeMessage(0x0103, txn, []), txn)).code).toBe('notResponse');
  });
});

describe('garbage gives coded errors, never another throw', () => {
  const cases: [string, Buffer, string][] = [
    ['empty', Buffer.alloc(0), 'truncated'],
    ['shorter than a header', IPV4_RESPONSE.subarray(0, 19), 'truncated'],
    [
      'wrong cookie',
      Buffer.concat([IPV4_RESPONSE.subarray(0, 4), hex('2112a443'), IPV4_RESPONSE.subarray(8)]),
      'notStun',
    ],
    ['top bits set', Buffer.concat([hex('c101'), IPV4_RESPONSE.subarray(2)]), 'notStun'],
    [
      'declared length not a multiple of 4',
      Buffer.concat([hex('0101003d'), IPV4_RESPONSE.subarray(4), hex('00')]),
      'badLength',
    ],
    ['declared length shorter than the packet', Buffer.concat([IPV4_RESPONSE, Buffer.alloc(4)]), 'badLength'],
    ['declared length longer than the packet', IPV4_RESPONSE.subarray(0, IPV4_RESPONSE.length - 8), 'truncated'],
    ['huge declared length', Buffer.concat([hex('0101fffc'), IPV4_RESPONSE.subarray(4)]), 'truncated'],
    [
      'bad fingerprint',
      Buffer.concat([IPV4_RESPONSE.subarray(0, IPV4_RESPONSE.length - 1), Buffer.from([0x97])]),
      'badFingerprint',
    ],
    // XOR-MAPPED-ADDRESS declares 0x0100 bytes of value inside a 12-byte body.
    [
      'attribute running past the end',
      hex('0101000c 2112a442 b7e7a701bc34d686fa87dfae 00200100 0001a147 e112a643'),
      'badAttribute',
    ],
    [
      'address of an unknown family',
      hex('01010008 2112a442 b7e7a701bc34d686fa87dfae 00200004 00030000'),
      'badAttribute',
    ],
    [
      'IPv4 family with an IPv6 length',
      hex(`01010018 2112a442 b7e7a701bc34d686fa87dfae 00200014 0001a147 ${'00'.repeat(16)}`),
      'badAttribute',
    ],
    ['ERROR-CODE too short', hex('01110008 2112a442 b7e7a701bc34d686fa87dfae 00090002 04140000'), 'badAttribute'],
    [
      'FINGERPRINT not last',
      hex('0101000c 2112a442 b7e7a701bc34d686fa87dfae 80280004 00000000 80220000'),
      'badFingerprint',
    ],
    ['FINGERPRINT of the wrong size', hex('01010004 2112a442 b7e7a701bc34d686fa87dfae 80280000'), 'badFingerprint'],
  ];
  for (const [name, buf, code] of cases) {
    it(name, () => {
      expect(() => looksLikeStun(buf)).not.toThrow();
      const e = stunErrorOf(() => decodeBindingResponse(buf, VECTOR_TXN));
      expect(e.code).toBe(code);
      expect(e.message).toMatch(/\w/);
    });
  }

  it('looksLikeStun tells STUN from payload cheaply', () => {
    expect(looksLikeStun(IPV4_RESPONSE)).toBe(true);
    expect(looksLikeStun(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))).toBe(false);
    for (const [, buf] of cases.slice(0, 8)) expect(looksLikeStun(buf)).toBe(false);
  });

  it('every truncation of a valid answer', () => {
    for (let n = 0; n < IPV6_RESPONSE.length; n++) {
      const e = stunErrorOf(() => decodeBindingResponse(IPV6_RESPONSE.subarray(0, n), VECTOR_TXN));
      expect(['truncated', 'badLength']).toContain(e.code);
    }
  });

  it('5000 random packets and 5000 random mutations of a valid answer', () => {
    const next = prng(0x5354554e);
    const byte = () => next() & 0xff;
    const codes = new Set<string>();
    const check = (buf: Buffer) => {
      expect(() => looksLikeStun(buf)).not.toThrow();
      try {
        decodeBindingResponse(buf, VECTOR_TXN);
      } catch (err) {
        expect(err).toBeInstanceOf(StunError);
        codes.add((err as StunError).code);
      }
    };
    for (let i = 0; i < 5000; i++) {
      const buf = Buffer.alloc(next() % 120);
      for (let j = 0; j < buf.length; j++) buf[j] = byte();
      // Half of them get a STUN-looking header, so the attribute walk is exercised too.
      if (i % 2 === 0 && buf.length >= 20) {
        buf[0] &= 0x3f;
        buf.writeUInt16BE((buf.length - 20) & ~3, 2);
        buf.writeUInt32BE(MAGIC_COOKIE, 4);
        VECTOR_TXN.copy(buf, 8);
      }
      check(buf);
    }
    for (let i = 0; i < 5000; i++) {
      const buf = Buffer.from(i % 2 ? IPV4_RESPONSE : IPV6_RESPONSE);
      for (let k = 1 + (next() % 4); k > 0; k--) buf[next() % buf.length] = byte();
      check(buf);
    }
    // The corpus reached the deep checks, not only the header ones.
    expect(codes).toContain('badAttribute');
    expect(codes).toContain('badFingerprint');
    expect(codes).toContain('notStun');
  });
});

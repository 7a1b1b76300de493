import { describe, expect, it } from 'vitest';
import { parseProxyHeader } from './proxyProtocol.js';

const SIG = Buffer.from('0d0a0d0a000d0a515549540a', 'hex');

/** A v2 header: version/command byte, family byte, then the address block (and TLVs). */
function v2(verCmd: number, family: number, body: Buffer): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(body.length);
  return Buffer.concat([SIG, Buffer.from([verCmd, family]), len, body]);
}

function ipv4Block(src: number[], dst: number[], sport: number, dport: number): Buffer {
  const b = Buffer.alloc(12);
  Buffer.from(src).copy(b, 0);
  Buffer.from(dst).copy(b, 4);
  b.writeUInt16BE(sport, 8);
  b.writeUInt16BE(dport, 10);
  return b;
}

describe('PROXY protocol v1', () => {
  it('reads TCP4 and TCP6 headers and leaves what follows', () => {
    const buf = Buffer.from('PROXY TCP4 203.0.113.7 192.168.1.2 51234 443\r\nGET / HTTP/1.1\r\n');
    expect(parseProxyHeader(buf)).toEqual({ length: 46, source: { address: '203.0.113.7', port: 51234 } });
    const six = Buffer.from('PROXY TCP6 2001:db8::1 2001:db8::2 1 65535\r\n');
    expect(parseProxyHeader(six)).toEqual({ length: six.length, source: { address: '2001:db8::1', port: 1 } });
  });

  it('takes UNKNOWN without an address', () => {
    expect(parseProxyHeader(Buffer.from('PROXY UNKNOWN\r\n'))).toEqual({ length: 15 });
    expect(parseProxyHeader(Buffer.from('PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n'))).toEqual({ length: 35 });
  });

  it('asks for more until the line is complete', () => {
    expect(parseProxyHeader(Buffer.from('PROXY TCP4 10.0.0.1'))).toBe('more');
    expect(parseProxyHeader(Buffer.alloc(0))).toBe('more');
  });

  it.each([
    ['a line of 107 bytes without its end', `PROXY TCP4 ${'1'.repeat(100)}`],
    ['a family it does not know', 'PROXY UDP4 10.0.0.1 10.0.0.2 1 2\r\n'],
    ['an IPv6 address under TCP4', 'PROXY TCP4 ::1 10.0.0.2 1 2\r\n'],
    ['a port above 65535', 'PROXY TCP4 10.0.0.1 10.0.0.2 65536 2\r\n'],
    ['a port with a leading zero', 'PROXY TCP4 10.0.0.1 10.0.0.2 080 2\r\n'],
    ['a field missing', 'PROXY TCP4 10.0.0.1 10.0.0.2 1\r\n'],
    ['a lower-case keyword', 'proxy TCP4 10.0.0.1 10.0.0.2 1 2\r\n'],
    ['an HTTP request instead', 'GET / HTTP/1.1\r\n\r\n'],
    ['a TLS handshake instead', '\x16\x03\x01\x00\xa5'],
  ])('refuses %s', (_name, text) => {
    expect(parseProxyHeader(Buffer.from(text, 'latin1'))).toBeInstanceOf(Error);
  });
});

describe('PROXY protocol v2', () => {
  it('reads an IPv4 PROXY header, skipping TLVs, and leaves what follows', () => {
    const tlv = Buffer.from([0x01, 0x00, 0x02, 0x68, 0x32]); // ALPN "h2"
    const head = v2(0x21, 0x11, Buffer.concat([ipv4Block([198, 51, 100, 9], [10, 0, 0, 1], 40000, 443), tlv]));
    const buf = Buffer.concat([head, Buffer.from('\x16\x03\x01', 'latin1')]);
    expect(parseProxyHeader(buf)).toEqual({ length: head.length, source: { address: '198.51.100.9', port: 40000 } });
  });

  it('reads an IPv6 PROXY header in its short spelling', () => {
    const body = Buffer.alloc(36);
    Buffer.from('20010db8000000000000000000000042', 'hex').copy(body, 0);
    Buffer.from('20010db8000000000000000000000001', 'hex').copy(body, 16);
    body.writeUInt16BE(5555, 32);
    body.writeUInt16BE(443, 34);
    expect(parseProxyHeader(v2(0x21, 0x21, body))).toEqual({
      length: 52,
      source: { address: '2001:db8::42', port: 5555 },
    });
  });

  it('names no client for LOCAL (health checks), UNSPEC and unix sockets', () => {
    expect(parseProxyHeader(v2(0x20, 0x00, Buffer.alloc(0)))).toEqual({ length: 16 });
    expect(parseProxyHeader(v2(0x21, 0x00, Buffer.alloc(0)))).toEqual({ length: 16 });
    expect(parseProxyHeader(v2(0x21, 0x31, Buffer.alloc(216)))).toEqual({ length: 232 });
  });

  it('asks for more while the signature, fixed part or addresses are incomplete', () => {
    const whole = v2(0x21, 0x11, ipv4Block([1, 2, 3, 4], [5, 6, 7, 8], 1, 2));
    for (const n of [1, 11, 12, 15, 16, 27]) expect(parseProxyHeader(whole.subarray(0, n))).toBe('more');
  });

  it.each([
    ['a wrong signature', Buffer.concat([Buffer.from('0d0a0d0a000d0a5155495400', 'hex'), Buffer.alloc(4)])],
    ['version 1 in the binary form', v2(0x11, 0x11, ipv4Block([1, 2, 3, 4], [5, 6, 7, 8], 1, 2))],
    ['an unknown command', v2(0x22, 0x11, ipv4Block([1, 2, 3, 4], [5, 6, 7, 8], 1, 2))],
    ['IPv4 addresses cut short', v2(0x21, 0x11, Buffer.alloc(8))],
    ['IPv6 addresses cut short', v2(0x21, 0x21, Buffer.alloc(20))],
    ['an unknown address family', v2(0x21, 0x41, Buffer.alloc(12))],
  ])('refuses %s', (_name, buf) => {
    expect(parseProxyHeader(buf)).toBeInstanceOf(Error);
  });
});

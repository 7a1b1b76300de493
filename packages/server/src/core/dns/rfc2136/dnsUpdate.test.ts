// The UPDATE encoder read back by an independent decoder (dns-packet), and the TSIG answer
// check against a MAC computed here from RFC 8945 §4.3 directly.
import { createHmac } from 'node:crypto';
import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { signMessage, verifyAnswer } from './tsig.js';
import { addressRdata, buildUpdate, encodeRR, parseMessage, replaceRRset, TYPE } from './wire.js';

const key = {
  name: 'ddns-key',
  algorithm: 'hmac-sha256' as const,
  secret: Buffer.from('0123456789abcdef0123456789abcdef'),
};

describe('DNS UPDATE message', () => {
  it('has the zone, the RRset delete and the add (RFC 2136 §2.5)', () => {
    const [del, add] = replaceRRset('nas.home.test', TYPE.AAAA, 60, [addressRdata('2001:db8::1')]);
    // dns-packet would read 16 bytes of rdata for any AAAA record, so the delete (class ANY,
    // no rdata) is checked byte by byte and the rest through the decoder.
    expect(encodeRR(del)).toEqual(
      Buffer.concat([
        Buffer.from('\x03nas\x04home\x04test\x00', 'latin1'),
        Buffer.from([0, 28, 0, 255, 0, 0, 0, 0, 0, 0]),
      ]),
    );
    const p = dnsPacket.decode(buildUpdate(0x1234, 'home.test', [add])) as unknown as dnsPacket.Packet & {
      opcode: string;
    };
    expect(p.id).toBe(0x1234);
    expect(p.opcode).toBe('UPDATE');
    expect(p.questions).toEqual([{ name: 'home.test', type: 'SOA', class: 'IN' }]);
    // dns-packet reads the update section as "authorities".
    expect(p.authorities?.[0]).toMatchObject({
      name: 'nas.home.test',
      type: 'AAAA',
      class: 'IN',
      ttl: 60,
      data: '2001:db8::1',
    });
    expect(addressRdata('192.0.2.1')).toEqual(Buffer.from([192, 0, 2, 1]));
  });

  it('adds the TSIG record last and counts it', () => {
    const msg = buildUpdate(7, 'home.test', replaceRRset('nas.home.test', TYPE.A, 60, [addressRdata('192.0.2.1')]));
    const { signed, mac } = signMessage(msg, key, 1_700_000_000);
    const p = parseMessage(signed);
    expect(p.arcount).toBe(1);
    expect(p.tsig).toMatchObject({
      keyName: 'ddns-key',
      algorithm: 'hmac-sha256',
      timeSigned: 1_700_000_000,
      fudge: 300,
      originalId: 7,
      error: 0,
    });
    expect(p.tsig?.mac).toEqual(mac);
    // RFC 8945 §4.3.3: MAC over the unsigned message and the TSIG variables.
    const vars = Buffer.concat([
      Buffer.from('\x08ddns-key\x00', 'latin1'),
      Buffer.from([0, 255, 0, 0, 0, 0]),
      Buffer.from('\x0bhmac-sha256\x00', 'latin1'),
      Buffer.from([0x00, 0x00, 0x65, 0x53, 0xf1, 0x00, 0x01, 0x2c, 0, 0, 0, 0]),
    ]);
    expect(mac).toEqual(createHmac('sha256', key.secret).update(msg).update(vars).digest());
  });
});

describe('TSIG answer check', () => {
  /** A server's answer to the signed request, signed as RFC 8945 §4.3.1 says. */
  function answer(requestMac: Buffer, tamper = false) {
    const body = Buffer.from(buildUpdate(7, 'home.test', []));
    body.writeUInt16BE(0xa800, 2); // QR + UPDATE, NOERROR
    const vars = Buffer.concat([
      Buffer.from('\x08ddns-key\x00', 'latin1'),
      Buffer.from([0, 255, 0, 0, 0, 0]),
      Buffer.from('\x0bhmac-sha256\x00', 'latin1'),
      Buffer.from([0, 0, 0x65, 0x53, 0xf1, 0x01, 0x01, 0x2c, 0, 0, 0, 0]),
    ]);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(requestMac.length);
    const mac = createHmac('sha256', key.secret).update(len).update(requestMac).update(body).update(vars).digest();
    const rdata = Buffer.concat([
      Buffer.from('\x0bhmac-sha256\x00', 'latin1'),
      Buffer.from([0, 0, 0x65, 0x53, 0xf1, 0x01, 0x01, 0x2c, 0, 32]),
      mac,
      Buffer.from([0, 7, 0, 0, 0, 0]),
    ]);
    const rr = Buffer.concat([
      Buffer.from('\x08ddns-key\x00', 'latin1'),
      Buffer.from([0, 250, 0, 255, 0, 0, 0, 0, 0, rdata.length]),
      rdata,
    ]);
    const out = Buffer.concat([body, rr]);
    out.writeUInt16BE(1, 10);
    if (tamper) out[13] ^= 1;
    return out;
  }

  it('accepts a correctly signed answer and refuses an altered one', () => {
    const msg = buildUpdate(7, 'home.test', []);
    const { mac } = signMessage(msg, key, 1_700_000_000);
    const good = answer(mac);
    expect(verifyAnswer(good, parseMessage(good), mac, key)).toBeUndefined();
    const bad = answer(mac, true);
    expect(verifyAnswer(bad, parseMessage(bad), mac, key)).toBe('the answer signature is wrong');
    const other = answer(Buffer.alloc(32));
    expect(verifyAnswer(other, parseMessage(other), mac, key)).toBe('the answer signature is wrong');
  });
});

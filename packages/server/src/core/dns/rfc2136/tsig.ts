// TSIG (RFC 8945): HMAC over the message and the TSIG variables, appended as the last
// additional record; the answer's MAC covers the request MAC, the answer without its TSIG
// record and the answer's TSIG variables, so a forged or altered answer is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DdnsTask } from '@lucky/shared';
import { CLASS, encodeName, type ParsedMessage, TYPE, u16, u32, u48 } from './wire.js';

export type TsigAlgorithm = DdnsTask['dns']['tsigAlgorithm'];

const HASH: Record<TsigAlgorithm, string> = {
  'hmac-sha1': 'sha1',
  'hmac-sha224': 'sha224',
  'hmac-sha256': 'sha256',
  'hmac-sha384': 'sha384',
  'hmac-sha512': 'sha512',
};

export const TSIG_ERRORS: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' };

export interface TsigKey {
  name: string;
  algorithm: TsigAlgorithm;
  secret: Buffer;
}

const FUDGE = 300;

function variables(keyName: string, algorithm: string, time: number, fudge: number, error: number, other: Buffer) {
  return Buffer.concat([
    encodeName(keyName, true),
    u16(CLASS.ANY),
    u32(0),
    encodeName(algorithm, true),
    u48(time),
    u16(fudge),
    u16(error),
    u16(other.length),
    other,
  ]);
}

/** Signs a message: returns it with ARCOUNT + 1 and the TSIG record, and the MAC for the answer check. */
export function signMessage(msg: Buffer, key: TsigKey, timeSigned: number): { signed: Buffer; mac: Buffer } {
  const mac = createHmac(HASH[key.algorithm], key.secret)
    .update(msg)
    .update(variables(key.name, key.algorithm, timeSigned, FUDGE, 0, Buffer.alloc(0)))
    .digest();
  const rdata = Buffer.concat([
    encodeName(key.algorithm, true),
    u48(timeSigned),
    u16(FUDGE),
    u16(mac.length),
    mac,
    msg.subarray(0, 2),
    u16(0),
    u16(0),
  ]);
  const rr = Buffer.concat([
    encodeName(key.name, true),
    u16(TYPE.TSIG),
    u16(CLASS.ANY),
    u32(0),
    u16(rdata.length),
    rdata,
  ]);
  const head = Buffer.from(msg);
  head.writeUInt16BE(head.readUInt16BE(10) + 1, 10);
  return { signed: Buffer.concat([head, rr]), mac };
}

/** Checks the answer's TSIG against the request MAC; returns why it is not valid, or undefined. */
export function verifyAnswer(
  answer: Buffer,
  parsed: ParsedMessage,
  requestMac: Buffer,
  key: TsigKey,
): string | undefined {
  const t = parsed.tsig;
  if (!t) return 'the answer is not signed';
  if (t.error !== 0) return `TSIG error ${TSIG_ERRORS[t.error] ?? t.error}`;
  if (t.keyName.toLowerCase() !== key.name.toLowerCase().replace(/\.$/, ''))
    return 'the answer is signed with another key';
  const body = Buffer.from(answer.subarray(0, t.offset));
  body.writeUInt16BE(t.originalId, 0);
  body.writeUInt16BE(parsed.arcount - 1, 10);
  const expected = createHmac(HASH[key.algorithm], key.secret)
    .update(u16(requestMac.length))
    .update(requestMac)
    .update(body)
    .update(variables(t.keyName, t.algorithm, t.timeSigned, t.fudge, t.error, t.other))
    .digest();
  if (expected.length !== t.mac.length || !timingSafeEqual(expected, t.mac)) return 'the answer signature is wrong';
  return undefined;
}

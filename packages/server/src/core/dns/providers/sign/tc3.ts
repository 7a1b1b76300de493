// Tencent Cloud API 3.0 signature TC3-HMAC-SHA256 ("Signature v3"): canonical request of a
// POST with JSON body and the content-type and host headers, string to sign with the
// credential scope <date>/<service>/tc3_request, key derived by HMAC chain from "TC3"+key.
import { createHash, createHmac } from 'node:crypto';

const sha256hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: Buffer | string, msg: string) => createHmac('sha256', key).update(msg, 'utf8').digest();

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  /** Unix seconds. */
  timestamp: number;
  payload: string;
  contentType?: string;
}

export function tc3CanonicalRequest(i: Tc3Input): string {
  // Header names and values in lower case, as the canonical-request rules say.
  const ct = (i.contentType ?? 'application/json; charset=utf-8').toLowerCase();
  return [
    'POST',
    '/',
    '',
    `content-type:${ct}\nhost:${i.host.toLowerCase()}\n`,
    'content-type;host',
    sha256hex(i.payload),
  ].join('\n');
}

export function tc3Sign(i: Tc3Input): { authorization: string; stringToSign: string; signature: string } {
  const date = new Date(i.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${i.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(i.timestamp), scope, sha256hex(tc3CanonicalRequest(i))].join('\n');
  const kDate = hmac(`TC3${i.secretKey}`, date);
  const kService = hmac(kDate, i.service);
  const kSigning = hmac(kService, 'tc3_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
  const authorization = `TC3-HMAC-SHA256 Credential=${i.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`;
  return { authorization, stringToSign, signature };
}

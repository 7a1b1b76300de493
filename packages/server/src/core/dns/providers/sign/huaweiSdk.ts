// Huawei Cloud APIG signature SDK-HMAC-SHA256 ("API Request Signing Guide"): canonical request
// = method, URI with a trailing slash, sorted query, sorted lower-case headers, signed header
// names, hex SHA-256 of the body; string to sign = algorithm, X-Sdk-Date, hex SHA-256 of the
// canonical request; signature = hex HMAC-SHA256 with the secret key.
import { createHash, createHmac } from 'node:crypto';

const sha256hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Percent-encoding of everything but A–Z a–z 0–9 - _ . ~ */
export function huaweiEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface HuaweiRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Header names in any case; all of them are signed. */
  headers: Record<string, string>;
  body: string;
}

export function huaweiCanonicalRequest(r: HuaweiRequest): { canonical: string; signedHeaders: string } {
  const segs = r.path.split('/').map((s) => huaweiEncode(decodeURIComponent(s)));
  let uri = segs.join('/');
  if (!uri.endsWith('/')) uri += '/';
  const query = Object.keys(r.query)
    .sort()
    .map((k) => `${huaweiEncode(k)}=${huaweiEncode(r.query[k])}`)
    .join('&');
  const names = Object.keys(r.headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const canonHeaders = names.map((n) => `${n}:${lower[n]}\n`).join('');
  const signedHeaders = names.join(';');
  const canonical = [r.method.toUpperCase(), uri, query, canonHeaders, signedHeaders, sha256hex(r.body)].join('\n');
  return { canonical, signedHeaders };
}

/** X-Sdk-Date format: YYYYMMDDTHHMMSSZ (UTC). */
export function sdkDate(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function huaweiSign(r: HuaweiRequest, ak: string, sk: string, date: string): string {
  const { canonical, signedHeaders } = huaweiCanonicalRequest(r);
  const stringToSign = `SDK-HMAC-SHA256\n${date}\n${sha256hex(canonical)}`;
  const signature = createHmac('sha256', sk).update(stringToSign, 'utf8').digest('hex');
  return `SDK-HMAC-SHA256 Access=${ak}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

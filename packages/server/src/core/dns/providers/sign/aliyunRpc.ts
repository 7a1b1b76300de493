// Alibaba Cloud RPC signature, version 1.0 (HMAC-SHA1), as in "Request syntax and signature
// method V2 for RPC APIs": sorted, percent-encoded query → "GET&%2F&" + encoded query →
// base64 HMAC-SHA1 with the key "<AccessKeySecret>&".
import { createHmac, randomUUID } from 'node:crypto';

/** RFC 3986 encoding as Alibaba wants it: encodeURIComponent plus ! ' ( ) *. */
export function aliyunEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${aliyunEncode(k)}=${aliyunEncode(params[k])}`)
    .join('&');
}

export function aliyunStringToSign(method: string, params: Record<string, string>): string {
  return `${method}&${aliyunEncode('/')}&${aliyunEncode(aliyunCanonicalQuery(params))}`;
}

export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  return createHmac('sha1', `${secret}&`).update(aliyunStringToSign(method, params)).digest('base64');
}

/** The full signed query string of one call (common parameters added). */
export function aliyunSignedQuery(
  action: Record<string, string>,
  o: { id: string; secret: string; version: string; now: Date; nonce?: string },
): string {
  const params: Record<string, string> = {
    ...action,
    Format: 'JSON',
    Version: o.version,
    AccessKeyId: o.id,
    SignatureMethod: 'HMAC-SHA1',
    SignatureVersion: '1.0',
    SignatureNonce: o.nonce ?? randomUUID(),
    Timestamp: o.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  const sig = aliyunSignature('GET', params, o.secret);
  return `${aliyunCanonicalQuery(params)}&Signature=${aliyunEncode(sig)}`;
}

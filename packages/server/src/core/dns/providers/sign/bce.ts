// Baidu Cloud bce-auth-v1 ("生成认证字符串"): signing key = hex HMAC-SHA256(SK, prefix) where
// prefix = bce-auth-v1/<AK>/<UTC time>/<expiry>; signature = hex HMAC-SHA256(signing key as
// text, canonical request) with the canonical request = method, encoded URI, sorted encoded
// query, sorted encoded "name:value" header lines. An empty signed-header list in the result
// means "the default headers" (host, content-length, content-type, content-md5, x-bce-*).
import { createHmac } from 'node:crypto';

const hmacHex = (key: string, msg: string) => createHmac('sha256', key).update(msg, 'utf8').digest('hex');

export function bceEncode(s: string, keepSlash = false): string {
  const e = encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? e.replace(/%2F/g, '/') : e;
}

const DEFAULT_HEADERS = new Set(['host', 'content-length', 'content-type', 'content-md5']);

export interface BceRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

export function bceSign(
  r: BceRequest,
  o: { ak: string; sk: string; timestamp: string; expiration?: number; signedHeaders?: string[] },
): string {
  const prefix = `bce-auth-v1/${o.ak}/${o.timestamp}/${o.expiration ?? 1800}`;
  const signingKey = hmacHex(o.sk, prefix);
  const query = Object.keys(r.query)
    .filter((k) => k.toLowerCase() !== 'authorization')
    .map((k) => `${bceEncode(k)}=${bceEncode(r.query[k])}`)
    .sort()
    .join('&');
  const lower = Object.entries(r.headers).map(([k, v]) => [k.trim().toLowerCase(), v.trim()] as const);
  const wanted = o.signedHeaders?.map((h) => h.toLowerCase());
  const chosen = lower.filter(([k, v]) =>
    wanted ? wanted.includes(k) : v !== '' && (DEFAULT_HEADERS.has(k) || k.startsWith('x-bce-')),
  );
  const canonHeaders = chosen
    .map(([k, v]) => `${bceEncode(k)}:${bceEncode(v)}`)
    .sort()
    .join('\n');
  const canonical = [r.method.toUpperCase(), bceEncode(r.path, true), query, canonHeaders].join('\n');
  const signature = hmacHex(signingKey, canonical);
  const names = wanted ? [...wanted].sort().join(';') : '';
  return `${prefix}/${names}/${signature}`;
}

/** The signing key alone (the documented intermediate value). */
export function bceSigningKey(sk: string, prefix: string): string {
  return hmacHex(sk, prefix);
}

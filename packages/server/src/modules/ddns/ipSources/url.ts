// The public address from echo URLs: tried in order until one answers an address of the
// task's family. The connection is bound to that family (an IPv4 task never learns its IPv6
// address) and never reused, so a re-dialled line is seen at once.
import { type CodedText, ddnsReason } from '@lucky/shared';
import { firstIp } from './extract.js';
import { fail, type IpResult, type IpSourceEnv } from './types.js';

const MAX_REDIRECTS = 3;

async function fetchOne(url: string, family: 4 | 6, env: IpSourceEnv): Promise<IpResult> {
  let current = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const res = await env.http.request(
        { family, fresh: true },
        {
          url: current,
          timeoutMs: env.timeoutMs,
          signal: env.signal,
          headers: { 'user-agent': 'lucky-console-ddns', accept: 'text/plain, */*' },
          maxBytes: 256 * 1024,
        },
      );
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        current = new URL(res.headers.location, current).href;
        continue;
      }
      if (res.status >= 400) return failed(ddnsReason('urlHttpStatus', { url, status: res.status }));
      const ip = firstIp(res.text, family);
      return ip ? { ok: true, ip, from: url } : failed(ddnsReason('urlNoAddress', { url, family }));
    }
    return failed(ddnsReason('urlRedirects', { url }));
  } catch (err) {
    return failed(ddnsReason('urlFailed', { url, detail: (err as Error).message }));
  }
}

/** One URL's failure: the topic with that URL's step as its cause (cached per round like an answer). */
const failed = (cause: CodedText): IpResult => fail('allUrlsFailed', { cause: [cause] });
const causesOf = (r: CodedText): CodedText[] => (r.params?.cause as CodedText[] | undefined) ?? [];

export async function ipFromUrls(urls: readonly string[], family: 4 | 6, env: IpSourceEnv): Promise<IpResult> {
  const tried: CodedText[] = [];
  for (const url of urls.map((u) => u.trim()).filter(Boolean)) {
    const key = `url|${family}|${url}`;
    let pending = env.cache?.get(key);
    if (!pending) {
      pending = fetchOne(url, family, env);
      env.cache?.set(key, pending);
    }
    const r = await pending;
    if (r.ok) return r;
    tried.push(...causesOf(r.reason));
    if (env.signal?.aborted) break;
  }
  return fail('allUrlsFailed', { cause: tried.length ? tried : [ddnsReason('noUrls')] });
}

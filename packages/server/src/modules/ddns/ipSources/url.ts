// The public address from echo URLs: tried in order until one answers an address of the
// task's family. The connection is bound to that family (an IPv4 task never learns its IPv6
// address) and never reused, so a re-dialled line is seen at once.
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
      if (res.status >= 400) return fail('allUrlsFailed', `HTTP ${res.status}`);
      const ip = firstIp(res.text, family);
      return ip ? { ok: true, ip, from: url } : fail('allUrlsFailed', `no IPv${family} address in the answer`);
    }
    return fail('allUrlsFailed', 'too many redirects');
  } catch (err) {
    return fail('allUrlsFailed', (err as Error).message);
  }
}

export async function ipFromUrls(urls: readonly string[], family: 4 | 6, env: IpSourceEnv): Promise<IpResult> {
  const tried: string[] = [];
  for (const url of urls.map((u) => u.trim()).filter(Boolean)) {
    const key = `url|${family}|${url}`;
    let pending = env.cache?.get(key);
    if (!pending) {
      pending = fetchOne(url, family, env);
      env.cache?.set(key, pending);
    }
    const r = await pending;
    if (r.ok) return r;
    tried.push(`${url}: ${r.msg}`);
    if (env.signal?.aborted) break;
  }
  return fail('allUrlsFailed', tried.length ? tried.join('; ') : 'no URL to ask');
}

// Small helpers every provider uses: JSON calls that turn error answers into ProviderError
// with the provider's own message, and the zone search for providers that list zones.
import type { HttpResponse } from '../../outbound/client.js';
import { type ProviderContext, ProviderError } from './types.js';

export interface JsonCall {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string. */
  body?: unknown;
}

export async function send(ctx: ProviderContext, c: JsonCall): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...c.headers };
  let body: string | undefined;
  if (c.body !== undefined) {
    body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    headers['content-type'] ??= 'application/json';
  }
  return ctx.http({ method: c.method, url: c.url, headers, body });
}

export function parseJson<T>(res: HttpResponse): T {
  try {
    return (res.text === '' ? {} : JSON.parse(res.text)) as T;
  } catch {
    throw new ProviderError(`HTTP ${res.status}: unexpected answer: ${res.text.slice(0, 200)}`, res.status);
  }
}

/**
 * A JSON call that must answer 2xx; otherwise the provider's message (found by `why`, or the
 * usual `message`/`error` fields) becomes the error.
 */
export async function callJson<T>(
  ctx: ProviderContext,
  c: JsonCall,
  why?: (body: Record<string, unknown>) => string | undefined,
): Promise<T> {
  const res = await send(ctx, c);
  if (res.status >= 200 && res.status < 300) return parseJson<T>(res);
  let msg: string | undefined;
  try {
    const b = JSON.parse(res.text) as Record<string, unknown>;
    msg = why?.(b) ?? pickMessage(b);
  } catch {
    msg = res.text.slice(0, 200);
  }
  throw new ProviderError(`HTTP ${res.status}${msg ? `: ${msg}` : ''}`, res.status);
}

function pickMessage(b: Record<string, unknown>): string | undefined {
  for (const k of ['message', 'Message', 'error', 'detail', 'msg', 'error_msg']) {
    const v = b[k];
    if (typeof v === 'string' && v) return v;
    if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string')
      return (v as { message: string }).message;
  }
  return undefined;
}

/** The longest zone name that the full name ends with (zones as the provider spells them). */
export function longestZone<T>(fqdn: string, zones: T[], nameOf: (z: T) => string): T | undefined {
  const name = fqdn.toLowerCase();
  let best: T | undefined;
  let bestLen = -1;
  for (const z of zones) {
    const zn = nameOf(z).toLowerCase().replace(/\.$/, '');
    if ((name === zn || name.endsWith(`.${zn}`)) && zn.length > bestLen) {
      best = z;
      bestLen = zn.length;
    }
  }
  return best;
}

/** The part of the full name below the zone ('' = apex). */
export function subOf(fqdn: string, zone: string): string {
  const z = zone.replace(/\.$/, '');
  return fqdn === z ? '' : fqdn.slice(0, -(z.length + 1));
}

export const trimSlash = (s: string) => s.replace(/\/+$/, '');

import {
  parseCustomConfig,
  type ReverseproxyRule,
  type ReverseproxyService,
  type ReverseproxySubRule,
} from '@lucky/shared';
import { hostHeaderOk } from '../../core/http/canonicalPath.js';
import { prefixForm, underPrefix } from '../../core/serve/pathPrefix.js';

/**
 * A service as it serves: its custom config's directives merged into its own header settings
 * (`proxy_set_header` after the request headers, `add_header` after the answer headers), plus
 * the names it drops from the request and hides from the back end's answer.
 */
export type ServedService = ReverseproxyService & {
  dropRequestHeaders?: ReadonlySet<string>;
  hideHeaders?: ReadonlySet<string>;
};

const served = new WeakMap<ReverseproxyService, ServedService>();

/** The service with its custom config applied; made once per config object (the caches keyed by it stay). */
export function servedService(s: ReverseproxyService): ServedService {
  if (!s.customConfig) return s;
  let out = served.get(s);
  if (!out) {
    const r = parseCustomConfig(s.customConfig);
    // Checked when saved; a text that no longer parses changes nothing rather than half of it.
    const c = r.ok ? r.config : undefined;
    out = c
      ? {
          ...s,
          requestHeaders: [...s.requestHeaders, ...c.requestHeaders],
          responseHeaders: [...s.responseHeaders, ...c.responseHeaders],
          ...(c.dropRequestHeaders.length > 0 ? { dropRequestHeaders: new Set(c.dropRequestHeaders) } : {}),
          ...(c.hideHeaders.length > 0 ? { hideHeaders: new Set(c.hideHeaders) } : {}),
        }
      : s;
    served.set(s, out);
  }
  return out;
}

/** What answers a request: a sub rule, or the rule's default rule (key `default`). */
export interface Site {
  key: string;
  service: ReverseproxyService;
  pathPrefix: string;
}

let lastHeader: string | undefined;
let lastHost = '';

/** Host without port, lower case, no trailing dot; IPv6 brackets removed. */
export function hostOf(hostHeader: string | undefined): string {
  // A busy site sees the same Host header request after request.
  if (hostHeader === lastHeader) return lastHost;
  let h = (hostHeader ?? '').trim().toLowerCase();
  if (h.startsWith('[')) h = h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  else if (h.indexOf(':') === h.lastIndexOf(':')) h = h.replace(/:\d*$/, '');
  lastHeader = hostHeader;
  lastHost = h.replace(/\.$/, '');
  return lastHost;
}

let lastChecked: string | undefined;
let lastValid = true;

/** Is the Host header a host name or address (cached like hostOf: a busy site repeats it)? */
export function hostValid(hostHeader: string): boolean {
  if (hostHeader !== lastChecked) {
    lastChecked = hostHeader;
    lastValid = hostHeaderOk(hostHeader);
  }
  return lastValid;
}

/**
 * The route table of one rule: host → sub rules by exact name, then by
 * one-level `*.` wildcard; within a host the longest matching path prefix
 * wins, in definition order on ties. Disabled sub rules are left out; what
 * nothing takes goes to the default rule. Rebuilt on every config change and
 * swapped in whole, so a request sees one table.
 */
export class RouteTable {
  private exact = new Map<string, Site[]>();
  private wildcard = new Map<string, Site[]>();
  readonly fallback: Site;

  constructor(rule: Pick<ReverseproxyRule, 'subRules' | 'defaultRule'>) {
    this.fallback = { key: 'default', service: servedService(rule.defaultRule), pathPrefix: '/' };
    for (const sub of rule.subRules) {
      if (!sub.enabled) continue;
      const site = siteOf(sub);
      for (const d of sub.domains) {
        const map = d.startsWith('*.') ? this.wildcard : this.exact;
        const name = d.startsWith('*.') ? d.slice(2) : d;
        const list = map.get(name) ?? [];
        list.push(site);
        map.set(name, list);
      }
    }
    for (const map of [this.exact, this.wildcard])
      for (const list of map.values()) list.sort((a, b) => b.pathPrefix.length - a.pathPrefix.length);
  }

  match(host: string, path: string): Site {
    const pick = (list: Site[] | undefined) => list?.find((s) => underPrefix(path, s.pathPrefix));
    const exact = pick(this.exact.get(host));
    if (exact) return exact;
    const dot = host.indexOf('.');
    if (dot > 0) {
      const wild = pick(this.wildcard.get(host.slice(dot + 1)));
      if (wild) return wild;
    }
    return this.fallback;
  }
}

function siteOf(sub: ReverseproxySubRule): Site {
  return { key: sub.key, service: servedService(sub), pathPrefix: prefixForm(sub.pathPrefix || '/') };
}

/** The local mount with the longest URL path that covers `urlPath` (files service), if any. */
export function mountFor(s: ReverseproxyService, urlPath: string): ReverseproxyService['mounts'][number] | undefined {
  return [...s.mounts]
    .filter((m) => m.type === 'local' && underPrefix(urlPath, m.urlPath))
    .sort((a, b) => b.urlPath.length - a.urlPath.length)[0];
}

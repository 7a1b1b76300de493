// Address checks shared by forms and the server (spec: "an IPv4/IPv6 pattern check exists").
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(s: string): boolean {
  return IPV4.test(s);
}

export function isIpv6(s: string): boolean {
  if (!s.includes(':')) return false;
  let body = s;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  // An embedded IPv4 tail counts as two groups.
  const lastColon = body.lastIndexOf(':');
  const tail = body.slice(lastColon + 1);
  let groupsNeeded = 8;
  if (tail.includes('.')) {
    if (!isIpv4(tail)) return false;
    body = `${body.slice(0, lastColon + 1)}0`;
    groupsNeeded = 7;
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const parse = (h: string) => (h === '' ? [] : h.split(':'));
  const left = parse(halves[0]);
  const right = halves.length === 2 ? parse(halves[1]) : [];
  const all = [...left, ...right];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  if (halves.length === 2) return all.length < groupsNeeded;
  return all.length === groupsNeeded;
}

export function isIp(s: string): boolean {
  return isIpv4(s) || isIpv6(s);
}

export function isCidrOrIp(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return isIp(s);
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const n = Number(bits);
  if (isIpv4(ip)) return n <= 32;
  if (isIpv6(ip)) return n <= 128;
  return false;
}

const DNS_LABEL = /^(?!-)[a-z0-9_\u00a1-\uffff-]{1,63}(?<!-)$/i;
/**
 * A DNS name as a user writes it (a record to keep, a zone, a server): letters (international
 * ones too, sent in ASCII later), digits, `-` and `_`, an optional trailing dot, `*` only as the
 * whole first label. isHostName is the Host header's form (ASCII letters, a `*.` prefix).
 */
export function isDnsName(name: string): boolean {
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  if (n.length === 0 || n.length > 253) return false;
  const labels = n.split('.');
  return labels.every((l, i) => (i === 0 && l === '*') || DNS_LABEL.test(l));
}

/** An http(s) URL with a host (IP literal or DNS name) and an optional port 1-65535. */
export function isHttpUrl(s: string): boolean {
  // No URL class here (the shared package has neither DOM nor node types): scheme, host, rest.
  const m = /^https?:\/\/([^/?#\s@]+@)?(\[[0-9a-fA-F:.]+\]|[^/?#\s:@]+)(:\d{1,5})?([/?#]\S*)?$/i.exec(s);
  if (!m) return false;
  const host = m[2].startsWith('[') ? m[2].slice(1, -1) : m[2];
  if (m[2].startsWith('[') ? !isIpv6(host) : !(isIpv4(host) || isDnsName(host))) return false;
  return m[3] === undefined || (Number(m[3].slice(1)) >= 1 && Number(m[3].slice(1)) <= 65535);
}

/** `host:port` / `[v6]:port` with a port 1-65535 (proxy addresses); `portRequired` false allows a bare host. */
export function isHostPort(s: string, portRequired = true): boolean {
  const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return portRequired ? false : isIpv6(s);
  const host = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  if (m[1].startsWith('[') && !isIpv6(host)) return false;
  if (!m[1].startsWith('[') && !isIpv4(host) && !isDnsName(host)) return false;
  if (m[2] === undefined) return !portRequired;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535;
}

/** An IP literal with an optional port: `1.1.1.1`, `1.1.1.1:53`, `2606:4700::1111`, `[2606:4700::1111]:53`. */
export function isDnsServer(s: string): boolean {
  if (isIp(s)) return true;
  const m = /^(\[[^\]]+\]|[\d.]+):(\d{1,5})$/.exec(s);
  if (!m) return false;
  const host = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  const port = Number(m[2]);
  return (m[1].startsWith('[') ? isIpv6(host) : isIpv4(host)) && port >= 1 && port <= 65535;
}

/** A MAC address: six hex pairs, separated all by `:`, all by `-`, or not at all. */
export function isMac(s: string): boolean {
  return /^[0-9a-f]{2}([:-]?)[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i.test(s);
}

/** Spec's "JSON string check". */
export function isJsonString(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** Labels with `_` too (service names such as `_dmarc`, hosts some LANs name `my_nas`). */
const LABEL_UNDERSCORE = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;

/**
 * A DNS host name as a browser sends it in `Host`: letters, digits and `-` in labels of 1-63
 * characters, at most 253 in all; an optional leading `*.` (one label of any name below).
 * `underscore`: labels may hold `_` as well.
 */
export function isHostName(s: string, opts: { underscore?: boolean } = {}): boolean {
  const name = s.startsWith('*.') ? s.slice(2) : s;
  if (name.length < 1 || name.length > 253) return false;
  const label = opts.underscore ? LABEL_UNDERSCORE : LABEL;
  return name.split('.').every((l) => label.test(l));
}

/**
 * An address a program connects to (a forwarding target): IPv4, IPv6 (brackets removed by the
 * caller) or a host name whose labels may hold `_`, with an optional trailing dot; no `*.`, and
 * not all digits and dots (that would be a bad IPv4 address).
 */
export function isTargetAddress(s: string): boolean {
  if (isIp(s)) return true;
  if (s.startsWith('*') || /^[\d.]+$/.test(s)) return false;
  return isHostName(s.endsWith('.') ? s.slice(0, -1) : s, { underscore: true });
}

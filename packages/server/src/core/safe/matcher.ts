// A list of allow/block entries (addresses, CIDRs, ranges) compiled for lookups at accept time.
// Each family becomes a sorted run of disjoint segments, each naming the entry that covers it
// (the first one in list order where entries overlap), so a lookup is one binary search however
// long the list is. IPv4-mapped IPv6 is folded to IPv4 on both sides (entries and clients).
import type { SafeEntry } from '@lucky/shared';
import { type IpFamily, type ParsedIp, parseCidr, parseIp, unmapIp } from '../net/lan.js';

export interface IpInterval {
  family: IpFamily;
  start: bigint;
  /** Inclusive. */
  end: bigint;
}

const BITS: Record<IpFamily, bigint> = { 4: 32n, 6: 128n };

/**
 * Parsed values by their text: every config change (and the routes' lock-out check) compiles the
 * lists again from fresh copies of the same entries, and parsing is most of a compile's cost.
 */
const parsed = new Map<string, IpInterval | null>();
const PARSED_MAX = 4 * 10_000;

/** An entry value as an interval, or null when it is not one (or a reversed range). */
export function entryInterval(value: string): IpInterval | null {
  const hit = parsed.get(value);
  if (hit !== undefined) return hit;
  const iv = parseInterval(value);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(value, iv);
  return iv;
}

function parseInterval(value: string): IpInterval | null {
  const dash = value.indexOf('-');
  if (dash >= 0) {
    const a = parseIp(value.slice(0, dash).trim());
    const b = parseIp(value.slice(dash + 1).trim());
    if (!a || !b) return null;
    const ua = unmapIp(a);
    const ub = unmapIp(b);
    if (ua.family !== ub.family || ua.value > ub.value) return null;
    return { family: ua.family, start: ua.value, end: ub.value };
  }
  const net = parseCidr(value);
  if (!net) return null;
  const hostBits = BITS[net.family] - BigInt(net.prefix);
  return { family: net.family, start: net.network, end: net.network + (1n << hostBits) - 1n };
}

/** True when `value` is a range whose end lies before its start (the routes refuse it). */
export function isReversedRange(value: string): boolean {
  const dash = value.indexOf('-');
  if (dash < 0) return false;
  const a = parseIp(value.slice(0, dash).trim());
  const b = parseIp(value.slice(dash + 1).trim());
  if (!a || !b) return false;
  const ua = unmapIp(a);
  const ub = unmapIp(b);
  return ua.family === ub.family && ua.value > ub.value;
}

/** A client address as the matcher sees it (mapped IPv6 folded), or null when unparsable. */
export function clientAddress(ip: string): ParsedIp | null {
  const p = parseIp(ip);
  return p ? unmapIp(p) : null;
}

interface Segments {
  /** Sorted segment starts; segment i runs up to starts[i+1]-1 (the last one to the family's end). */
  starts: bigint[];
  /** Index into the entries of the entry covering segment i, or -1. */
  owner: number[];
}

/** A small binary min-heap of entry indices (the covering entry is the lowest index). */
class MinHeap {
  private a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  peek(): number {
    return this.a[0];
  }
  push(v: number): void {
    const a = this.a;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): void {
    const a = this.a;
    const last = a.pop() as number;
    if (a.length === 0) return;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && a[l] < a[m]) m = l;
      if (r < a.length && a[r] < a[m]) m = r;
      if (m === i) break;
      [a[m], a[i]] = [a[i], a[m]];
      i = m;
    }
  }
}

function buildSegments(items: { index: number; iv: IpInterval }[]): Segments {
  // Sweep over boundary points: at a start the entry becomes active, at end+1 it stops.
  const events: { at: bigint; index: number; open: boolean }[] = [];
  for (const { index, iv } of items) {
    events.push({ at: iv.start, index, open: true });
    events.push({ at: iv.end + 1n, index, open: false });
  }
  events.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
  const active = new MinHeap();
  const closed = new Set<number>();
  const starts: bigint[] = [];
  const owner: number[] = [];
  for (let i = 0; i < events.length; ) {
    const at = events[i].at;
    for (; i < events.length && events[i].at === at; i++) {
      const e = events[i];
      if (e.open) active.push(e.index);
      else closed.add(e.index);
    }
    // Lazy removal: drop closed entries only when they reach the top.
    while (active.size > 0 && closed.has(active.peek())) {
      closed.delete(active.peek());
      active.pop();
    }
    const who = active.size > 0 ? active.peek() : -1;
    // Merge with the previous segment when the owner did not change.
    if (owner.length > 0 && owner[owner.length - 1] === who) continue;
    starts.push(at);
    owner.push(who);
  }
  return { starts, owner };
}

function lookup(seg: Segments, v: bigint): number {
  let lo = 0;
  let hi = seg.starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (seg.starts[mid] <= v) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? -1 : seg.owner[found];
}

export interface CompiledList {
  /** The entry covering `ip` (first in list order), or undefined. */
  match(ip: ParsedIp): SafeEntry | undefined;
  /** Epoch ms when the first still-counted entry expires (the compile is stale from then), or Infinity. */
  validUntil: number;
}

/** Compiles `entries` as they stand at `now`: expired ones and unparsable values are left out. */
export function compileList(entries: readonly SafeEntry[], now: number): CompiledList {
  const v4: { index: number; iv: IpInterval }[] = [];
  const v6: { index: number; iv: IpInterval }[] = [];
  let validUntil = Number.POSITIVE_INFINITY;
  entries.forEach((entry, index) => {
    if (entry.expiresAt !== null) {
      const t = Date.parse(entry.expiresAt);
      if (!(t > now)) return;
      validUntil = Math.min(validUntil, t);
    }
    const iv = entryInterval(entry.value);
    if (!iv) return;
    (iv.family === 4 ? v4 : v6).push({ index, iv });
  });
  const seg4 = buildSegments(v4);
  const seg6 = buildSegments(v6);
  return {
    validUntil,
    match(ip) {
      const i = lookup(ip.family === 4 ? seg4 : seg6, ip.value);
      return i < 0 ? undefined : entries[i];
    },
  };
}

/** Whether an entry counts at `now` (not expired). */
export function entryLive(entry: SafeEntry, now: number): boolean {
  return entry.expiresAt === null || Date.parse(entry.expiresAt) > now;
}

// Auto-ban: failed authentications per address in a sliding window; enough of them ban the address
// for a while. Held in memory and in `<configDir>/safe-bans.json` (atomic, debounced writes) so a
// restart does not lift them. IPv6 addresses count and ban by their /64, as the login throttle:
// one host can rotate through a whole /64.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SAFE_LIMITS, type SafeBanView, type SafeConfig, type SafeFailureSource } from '@lucky/shared';
import { writeFileAtomic } from '../config/atomicWrite.js';
import { formatIp, parseIp, unmapIp } from '../net/lan.js';

export const BANS_FILE = 'safe-bans.json';
/** Addresses whose recent failures are tracked at once; beyond it the longest-quiet one is forgotten. */
const TRACKED_MAX = 100_000;
const SAVE_DELAY_MS = 1000;

interface Ban {
  since: number;
  until: number;
  failures: number;
  sources: SafeFailureSource[];
}

interface Tracked {
  /** Failure times, oldest first, at most `autoBan.failures` of them. */
  times: number[];
  sources: SafeFailureSource[];
}

/** The key an address counts and is banned under: IPv4 (mapped folded) as is, IPv6 as its /64. */
export function banKeyOf(ip: string): string | null {
  const p = parseIp(ip);
  if (!p) return null;
  const a = unmapIp(p);
  if (a.family === 4) return formatIp(a);
  const net = a.value & ~((1n << 64n) - 1n);
  return `${formatIp({ family: 6, value: net })}/64`;
}

export interface BanEvents {
  banned(key: string, ban: Ban): void;
  expired(key: string): void;
  /** The set of bans changed (added, lifted, cleared, ended): listeners ask their open connections again. */
  changed?(): void;
}

export class BanList {
  private bans = new Map<string, Ban>();
  private tracked = new Map<string, Tracked>();
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string | undefined,
    private readonly settings: () => SafeConfig['autoBan'],
    private readonly now: () => number,
    private readonly events: BanEvents,
  ) {}

  static inDir(configDir: string, settings: () => SafeConfig['autoBan'], now: () => number, events: BanEvents) {
    return new BanList(path.join(configDir, BANS_FILE), settings, now, events);
  }

  async load(): Promise<void> {
    if (!this.file) return;
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch {
      return;
    }
    try {
      const doc = JSON.parse(text) as { bans?: Record<string, Ban> };
      const now = this.now();
      for (const [key, b] of Object.entries(doc.bans ?? {})) {
        if (typeof b?.until === 'number' && b.until > now && banKeyOf(key.replace(/\/64$/, '')) === key) {
          this.bans.set(key, {
            since: Number(b.since) || now,
            until: b.until,
            failures: Number(b.failures) || 0,
            sources: Array.isArray(b.sources) ? b.sources : [],
          });
        }
      }
    } catch {
      // A torn or hand-edited file: start without bans rather than refuse to start.
    }
  }

  /** The live ban of `ip` (its /64 for IPv6), or undefined; an ended ban is dropped here. */
  banOf(ip: string): (Ban & { key: string }) | undefined {
    if (this.bans.size === 0) return undefined;
    const key = banKeyOf(ip);
    if (!key) return undefined;
    const b = this.bans.get(key);
    if (!b) return undefined;
    if (b.until <= this.now()) {
      this.bans.delete(key);
      this.events.expired(key);
      this.scheduleSave();
      return undefined;
    }
    return { ...b, key };
  }

  /** Count one failure; returns the new ban when this one tipped the address over. */
  failure(ip: string, source: SafeFailureSource): Ban | undefined {
    const key = banKeyOf(ip);
    if (!key) return undefined;
    if (this.banOf(ip)) return undefined;
    const s = this.settings();
    const now = this.now();
    let t = this.tracked.get(key);
    if (t)
      this.tracked.delete(key); // re-inserted below: Map order is then "least recently failed first"
    else t = { times: [], sources: [] };
    const from = now - s.windowMinutes * 60_000;
    while (t.times.length > 0 && t.times[0] <= from) {
      t.times.shift();
      t.sources.shift();
    }
    t.times.push(now);
    t.sources.push(source);
    if (t.times.length > s.failures) {
      t.times.shift();
      t.sources.shift();
    }
    if (t.times.length < s.failures) {
      this.tracked.set(key, t);
      if (this.tracked.size > TRACKED_MAX) this.tracked.delete(this.tracked.keys().next().value as string);
      return undefined;
    }
    const ban: Ban = {
      since: now,
      until: now + s.banMinutes * 60_000,
      failures: t.times.length,
      sources: bySource(t.sources),
    };
    this.bans.set(key, ban);
    while (this.bans.size > SAFE_LIMITS.bans.max) this.dropOldest();
    this.events.banned(key, ban);
    this.scheduleSave();
    return ban;
  }

  /** Lift the ban of `ip` (an address inside it or its key); false when there is none. */
  unban(ip: string): string | undefined {
    const key = banKeyOf(ip.replace(/\/64$/, ''));
    if (!key || !this.banOf(ip.replace(/\/64$/, ''))) return undefined;
    this.bans.delete(key);
    this.tracked.delete(key);
    this.scheduleSave();
    return key;
  }

  clear(): string[] {
    const keys = [...this.bans.keys()];
    this.bans.clear();
    this.tracked.clear();
    this.scheduleSave();
    return keys;
  }

  /** Live bans, newest first (ended ones are dropped). */
  list(): SafeBanView[] {
    this.prune();
    return [...this.bans.entries()].sort((a, b) => b[1].since - a[1].since).map(([key, b]) => viewOf(key, b));
  }

  view(key: string, b: Ban): SafeBanView {
    return viewOf(key, b);
  }

  /** Drop ended bans and stale failure counts (a timer calls it; reads do it for what they touch). */
  prune(): void {
    const now = this.now();
    for (const [key, b] of this.bans) {
      if (b.until <= now) {
        this.bans.delete(key);
        this.events.expired(key);
        this.scheduleSave();
      }
    }
    const from = now - this.settings().windowMinutes * 60_000;
    for (const [key, t] of this.tracked) {
      if (t.times[t.times.length - 1] <= from) this.tracked.delete(key);
    }
  }

  get trackedCount(): number {
    return this.tracked.size;
  }

  get size(): number {
    return this.bans.size;
  }

  /** Write now what is pending (shutdown, tests). */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.save();
    }
    await this.saving;
  }

  private dropOldest(): void {
    // Map order is ban order (a ban is set once, and a later one for the same key comes after its
    // end deleted the old one; the file is written and read back in that order).
    const first = this.bans.keys().next();
    if (!first.done) this.bans.delete(first.value);
  }

  /** The ban set changed: tell the gate, write the file soon. */
  private scheduleSave(): void {
    this.events.changed?.();
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  private save(): void {
    const file = this.file;
    if (!file) return;
    // Chained: two writes never race for the rename.
    this.saving = this.saving.then(async () => {
      const doc = { bans: Object.fromEntries(this.bans) };
      try {
        await writeFileAtomic(file, `${JSON.stringify(doc)}\n`);
      } catch {
        // The directory went away (tests tearing down) or the disk is full: the bans still hold in memory.
      }
    });
  }
}

/** Sources most first (ties in the order they first appeared). */
function bySource(sources: SafeFailureSource[]): SafeFailureSource[] {
  const counts = new Map<SafeFailureSource, number>();
  for (const s of sources) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => s);
}

function viewOf(key: string, b: Ban): SafeBanView {
  return {
    ip: key,
    since: new Date(b.since).toISOString(),
    until: new Date(b.until).toISOString(),
    failures: b.failures,
    sources: b.sources,
  };
}

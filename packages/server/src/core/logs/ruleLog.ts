import type { Logger } from './logger.js';

/** Spec log levels: 2 Error, 3 Warn, 4 Info, 5 Debug, 6 Trace. */
export type RuleLogLevel = 2 | 3 | 4 | 5 | 6;

export interface RuleLogEntry {
  /** Increasing per rule; lets a view fetch only what is new. */
  seq: number;
  /** ISO 8601, UTC. */
  time: string;
  level: RuleLogLevel;
  text: string;
}

/**
 * What the ring holds: the time as a number, formatted when read (toISOString on every line
 * cost a busy web service site about 4 µs of its ~45 µs per proxied request).
 */
interface StoredEntry {
  seq: number;
  at: number;
  level: RuleLogLevel;
  text: string;
}

export interface RuleLogOptions {
  /** Highest level kept (2 Error … 6 Trace). */
  level: number;
  /** Entries kept; 0 keeps none (console copies still happen). */
  capacity: number;
  toConsole: boolean;
}

/**
 * One rule's log (port forwarding rules, web service sub rules): a fixed-size ring of entries with the spec's levels, pageable either way.
 * A ring (not an array that is sliced) so a busy rule at capacity 102400 costs O(1) per line.
 */
export class RuleLog {
  private ring: (StoredEntry | undefined)[] = [];
  /** Index of the oldest entry. */
  private start = 0;
  private count = 0;
  private seq = 0;
  private opts: RuleLogOptions = { level: 4, capacity: 0, toConsole: false };

  constructor(
    opts: RuleLogOptions,
    private console: Logger,
  ) {
    this.configure(opts);
  }

  /** Where console copies go (the rule's name is the tag, so a rename moves it). */
  setConsole(console: Logger): void {
    this.console = console;
  }

  configure(opts: RuleLogOptions): void {
    if (opts.capacity !== this.opts.capacity) {
      const keep = this.stored(0, Math.min(this.count, opts.capacity), 'newest').reverse();
      this.ring = keep;
      this.start = 0;
      this.count = keep.length;
    }
    this.opts = { ...opts };
  }

  /** Cheap check before building a message. */
  wants(level: RuleLogLevel): boolean {
    return level <= this.opts.level && (this.opts.capacity > 0 || this.opts.toConsole);
  }

  error(text: string): void {
    this.add(2, text);
  }
  warn(text: string): void {
    this.add(3, text);
  }
  info(text: string): void {
    this.add(4, text);
  }
  debug(text: string): void {
    this.add(5, text);
  }
  trace(text: string): void {
    this.add(6, text);
  }

  /** `at`: when it happened (a web service helper process reports its lines a little later). */
  add(level: RuleLogLevel, text: string, at = Date.now()): void {
    if (level > this.opts.level) return;
    if (this.opts.toConsole) {
      if (level === 2) this.console.error(text);
      else if (level === 3) this.console.warn(text);
      else if (level === 4) this.console.info(text);
      else this.console.debug(text);
    }
    const cap = this.opts.capacity;
    if (cap === 0) return;
    const entry: StoredEntry = { seq: ++this.seq, at, level, text };
    if (this.count < cap) {
      this.ring[(this.start + this.count) % cap] = entry;
      this.count++;
    } else {
      this.ring[this.start] = entry;
      this.start = (this.start + 1) % cap;
    }
  }

  get size(): number {
    return this.count;
  }

  /** The newest `n` entries, newest first. */
  newest(n: number): RuleLogEntry[] {
    return this.slice(0, n, 'newest');
  }

  /** Page `page` (1-based) of `pageSize`, newest or oldest first. */
  page(page: number, pageSize: number, order: 'newest' | 'oldest'): { total: number; logs: RuleLogEntry[] } {
    return { total: this.count, logs: this.slice((page - 1) * pageSize, pageSize, order) };
  }

  clear(): void {
    this.ring = [];
    this.start = 0;
    this.count = 0;
  }

  private slice(from: number, n: number, order: 'newest' | 'oldest'): RuleLogEntry[] {
    return this.stored(from, n, order).map((e) => ({
      seq: e.seq,
      time: new Date(e.at).toISOString(),
      level: e.level,
      text: e.text,
    }));
  }

  private stored(from: number, n: number, order: 'newest' | 'oldest'): StoredEntry[] {
    const out: StoredEntry[] = [];
    const cap = this.opts.capacity;
    for (let i = from; i < Math.min(this.count, from + n); i++) {
      const logical = order === 'oldest' ? i : this.count - 1 - i;
      const e = this.ring[(this.start + logical) % cap];
      if (e) out.push(e);
    }
    return out;
  }
}

import type { Logger } from './logger.js';

/** Spec log levels: 2 Error, 3 Warn, 4 Info, 5 Debug, 6 Trace. */
export type RuleLogLevel = 2 | 3 | 4 | 5 | 6;

export interface RuleLogEntry {
  /** Increasing per rule; lets a view fetch only what is new. */
  seq: number;
  /** ISO 8601, UTC. */
  time: string;
  level: RuleLogLevel;
  /** English text (API users, the console copy). */
  text: string;
  /** The line's code and params: the UI shows its own translation (`<module>.log.<code>`). */
  code?: string;
  params?: Record<string, unknown>;
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
 *
 * Stored as parallel arrays (numbers in typed arrays, the text as one flat string), formatted
 * when read: a line outlives many young-generation collections, so everything it holds is
 * copied to the old generation. Kept as an entry object with the text left as V8's tree of
 * concatenated pieces, the access line cost a busy web service site 13k of its 173k
 * instructions per proxied request (callgrind); making the text costs 3k of that.
 */
export class RuleLog {
  private texts: string[] = [];
  /** Code and params of coded lines (sparse: an uncoded line leaves its slot undefined). */
  private codes: (string | undefined)[] = [];
  private params: (Record<string, unknown> | undefined)[] = [];
  private seqs = new Float64Array(0);
  private ats = new Float64Array(0);
  private levels = new Uint8Array(0);
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
      // The newest entries that fit, oldest first, into arrays of the new size.
      const keep = Math.min(this.count, opts.capacity);
      const slots = Array.from({ length: keep }, (_, i) => this.slot(this.count - keep + i));
      const [texts, seqs, ats, levels, codes, params] = [
        this.texts,
        this.seqs,
        this.ats,
        this.levels,
        this.codes,
        this.params,
      ];
      this.allocate(keep > 0 ? opts.capacity : 0);
      slots.forEach((j, i) => {
        this.texts[i] = texts[j];
        this.codes[i] = codes[j];
        this.params[i] = params[j];
        this.seqs[i] = seqs[j];
        this.ats[i] = ats[j];
        this.levels[i] = levels[j];
      });
      this.start = 0;
      this.count = keep;
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

  /**
   * A line the UI translates: `code` + `params` (locale key `<module>.log.<code>`), `text` the
   * English line for API users and the console copy.
   */
  coded(level: RuleLogLevel, code: string, params: Record<string, unknown>, text: string, at = Date.now()): void {
    this.add(level, text, at, code, params);
  }

  /** `at`: when it happened (a web service helper process reports its lines a little later). */
  add(level: RuleLogLevel, text: string, at = Date.now(), code?: string, params?: Record<string, unknown>): void {
    if (level > this.opts.level) return;
    if (this.opts.toConsole) {
      if (level === 2) this.console.error(text);
      else if (level === 3) this.console.warn(text);
      else if (level === 4) this.console.info(text);
      else this.console.debug(text);
    }
    const cap = this.opts.capacity;
    if (cap === 0) return;
    if (this.levels.length !== cap) this.allocate(cap);
    let i: number;
    if (this.count < cap) i = (this.start + this.count++) % cap;
    else {
      i = this.start;
      this.start = (this.start + 1) % cap;
    }
    // Reading the last character makes V8 flatten a concatenated text into one string now,
    // while its pieces are still young garbage (see the class comment).
    text.charCodeAt(text.length - 1);
    this.texts[i] = text;
    this.seqs[i] = ++this.seq;
    this.ats[i] = at;
    this.levels[i] = level;
    this.codes[i] = code;
    this.params[i] = params;
  }

  /** Empty arrays for `size` entries: made with the first line (an unused log costs nothing) or a resize. */
  private allocate(size: number): void {
    this.texts = [];
    this.codes = [];
    this.params = [];
    this.seqs = new Float64Array(size);
    this.ats = new Float64Array(size);
    this.levels = new Uint8Array(size);
  }

  /** Array index of the entry `logical` places after the oldest. */
  private slot(logical: number): number {
    return (this.start + logical) % Math.max(this.levels.length, 1);
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
    this.texts = [];
    this.codes = [];
    this.params = [];
    this.start = 0;
    this.count = 0;
  }

  private slice(from: number, n: number, order: 'newest' | 'oldest'): RuleLogEntry[] {
    const out: RuleLogEntry[] = [];
    for (let i = from; i < Math.min(this.count, from + n); i++) {
      const j = this.slot(order === 'oldest' ? i : this.count - 1 - i);
      const entry: RuleLogEntry = {
        seq: this.seqs[j],
        time: new Date(this.ats[j]).toISOString(),
        level: this.levels[j] as RuleLogLevel,
        text: this.texts[j],
      };
      const code = this.codes[j];
      if (code !== undefined) {
        entry.code = code;
        entry.params = this.params[j] ?? {};
      }
      out.push(entry);
    }
    return out;
  }
}

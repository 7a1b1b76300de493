import type { LogRing } from './ring.js';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface Logger {
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
  /** A logger whose lines carry `[tag]`, e.g. a module key. */
  child(tag: string): Logger;
}

export interface LogSink {
  write(line: string, level: LogLevel): void;
}

/**
 * Plain-text program logger: one line per event, to the ring (for the log
 * dialog) and to stdout (for journald / docker logs). A small own logger
 * instead of pino because the ring wants formatted text lines, not JSON, and
 * the admin API does not log requests.
 */
export function createLogger(opts: { ring?: LogRing; level?: LogLevel; stdout?: boolean; sinks?: LogSink[] }): Logger {
  const max = ORDER[opts.level ?? 'info'];
  const toStdout = opts.stdout ?? true;
  const emit = (level: LogLevel, tag: string, msg: string) => {
    if (ORDER[level] > max) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${tag ? `[${tag}] ` : ''}${msg}`;
    opts.ring?.push(line);
    if (toStdout) process.stdout.write(`${line}\n`);
    for (const s of opts.sinks ?? []) s.write(line, level);
  };
  const make = (tag: string): Logger => ({
    error: (m) => emit('error', tag, m),
    warn: (m) => emit('warn', tag, m),
    info: (m) => emit('info', tag, m),
    debug: (m) => emit('debug', tag, m),
    child: (t) => make(tag ? `${tag}/${t}` : t),
  });
  return make('');
}

/** A logger that drops everything (unit tests). */
export const silentLogger: Logger = createLogger({ stdout: false, level: 'error', sinks: [] });

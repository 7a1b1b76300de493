// The log viewer's state as a pure reducer (spec §4): a changed `starttime`
// (the program restarted) clears the text; new lines are appended and the
// last timestamp becomes the next `pre`.
import { LOG_MAX_SIZE, type LogLine } from '@lucky/shared';

export interface LogBuffer {
  /** Start time of the program the lines came from; undefined before the first reply. */
  starttime?: string;
  /** Last seen timestamp, sent as `pre`. */
  pre: string;
  lines: string[];
}

export const EMPTY_LOG_BUFFER: LogBuffer = { pre: '0', lines: [] };

/** The browser keeps no more lines than the server's largest log ring. */
export const MAX_LINES = LOG_MAX_SIZE.max;

export interface LogsReply {
  starttime?: unknown;
  logs?: unknown;
}

function isLogLine(v: unknown): v is LogLine {
  return !!v && typeof v === 'object' && typeof (v as LogLine).log === 'string';
}

/** `format` turns each new line into what is shown (the time in the display zone). */
export function applyLogReply(
  state: LogBuffer,
  reply: LogsReply,
  format: (line: string) => string = (l) => l,
): LogBuffer {
  const starttime =
    typeof reply.starttime === 'string' || typeof reply.starttime === 'number' ? String(reply.starttime) : undefined;
  const restarted = starttime !== undefined && starttime !== state.starttime;
  let lines = restarted ? [] : state.lines;
  let pre = state.pre;
  const incoming = Array.isArray(reply.logs) ? reply.logs.filter(isLogLine) : [];
  if (incoming.length > 0) {
    lines = lines.concat(incoming.map((l) => format(l.log.replace(/\r?\n$/, ''))));
    if (lines.length > MAX_LINES) lines = lines.slice(lines.length - MAX_LINES);
    const last = incoming[incoming.length - 1].timestamp;
    if (last !== undefined && last !== null && String(last) !== '') pre = String(last);
  }
  if (!restarted && lines === state.lines && pre === state.pre) return state;
  return { starttime: starttime ?? state.starttime, pre, lines };
}

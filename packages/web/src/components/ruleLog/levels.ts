// The rule-log levels of the spec (2 Error … 6 Trace), shared by every module whose rules keep a
// log on the server's RuleLog ring (port forwarding, web service): names, colours, translations.
import { formatTime } from '../time';

export const RULE_LOG_LEVELS = [2, 3, 4, 5, 6] as const;

const NAMES: Record<number, string> = { 2: 'error', 3: 'warn', 4: 'info', 5: 'debug', 6: 'trace' };
export const LEVEL_COLOR: Record<number, string> = { 2: 'red', 3: 'orange', 4: 'blue', 5: 'cyan', 6: 'default' };

/** `common.logLevel_error` … for a level number; unknown numbers read as Info. */
export const levelKey = (level: number): string => `common.logLevel_${NAMES[level] ?? 'info'}`;

/** A log line's time as the views show it (display zone): clock time, with the date in the full log. */
export const logTime = (iso: string, withDate = false) =>
  formatTime(iso, withDate ? 'YYYY-MM-DD HH:mm:ss' : 'HH:mm:ss');

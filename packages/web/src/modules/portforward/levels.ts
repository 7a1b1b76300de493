// Spec §3: log levels 2 Error, 3 Warn, 4 Info, 5 Debug, 6 Trace.
import { PORTFORWARD_LOG_LEVELS, type PortforwardLogLevel } from '@lucky/shared';

export const LOG_LEVELS = Object.keys(PORTFORWARD_LOG_LEVELS).map(Number) as PortforwardLogLevel[];

export const LEVEL_COLOR: Record<PortforwardLogLevel, string> = {
  2: 'red',
  3: 'orange',
  4: 'blue',
  5: 'cyan',
  6: 'default',
};

/** `portforward.level_error` … for a level number; unknown numbers read as Info. */
export function levelKey(level: number): string {
  const name = PORTFORWARD_LOG_LEVELS[level as PortforwardLogLevel] ?? 'info';
  return `portforward.level_${name}`;
}

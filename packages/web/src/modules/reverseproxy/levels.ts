// Spec §3: log levels 2 Error, 3 Warn, 4 Info, 5 Debug, 6 Trace.
import { REVERSEPROXY_LIMITS } from '@lucky/shared';

const NAMES: Record<number, string> = { 2: 'error', 3: 'warn', 4: 'info', 5: 'debug', 6: 'trace' };
const { min, max } = REVERSEPROXY_LIMITS.logLevel;

export const LOG_LEVELS = Array.from({ length: max - min + 1 }, (_, i) => min + i);

export const LEVEL_COLOR: Record<number, string> = { 2: 'red', 3: 'orange', 4: 'blue', 5: 'cyan', 6: 'default' };

/** `reverseproxy.level_error` … for a level number; unknown numbers read as Info. */
export const levelKey = (level: number): string => `reverseproxy.level_${NAMES[level] ?? 'info'}`;

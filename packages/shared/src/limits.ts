// Business constants from spec section 9. Both sides import these so the
// browser and the server agree on every range.
export const DEFAULT_ADMIN_PORT = 16601;
export const REQUEST_TIMEOUT_MS = 5000;
/** The session ends when MORE than this many requests fail in a row. */
export const MAX_CONSECUTIVE_FAILURES = 2;
export const BACKEND_ERROR_DISPLAY_MS = 2 * 60 * 1000;
export const LOG_POLL_MS = 1000;
export const REMOTE_HOST_DELAY_MS = 300;
export const MENU_BREAKPOINT_PX = 1200;
export const MOBILE_DIALOG_BREAKPOINT_PX = 768;
export const DIALOG_MAX_WIDTH_PX = 1300;
export const RANDOM_STRING_DEFAULT_LENGTH = 15;
export const LANGUAGES = ['zh_CN', 'en_US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh_CN';

export const LOG_MAX_SIZE = { min: 1024, max: 40960, default: 2048 } as const;
export const TOKEN_LIFETIME_HOURS = { min: 1, max: 720, default: 24 } as const;
export const HTTP_CLIENT_TIMEOUT_S = { min: 3, max: 60, default: 20 } as const;
export const CONFIG_BACKUPS_KEPT = 5;

/** Refresh choices offered by list screens, in ms (0 = custom). */
export const REFRESH_CHOICES_MS = [1000, 5000, 10000, 60000, 120000, 600000, 1800000, 3600000] as const;
/** Candidate hosts for the about page's remote version check: three, the first is the default. */
export const DEFAULT_ABOUT_HOSTS = [
  'https://lucky.666666.host',
  'https://static.lucky666.cn',
  'https://lucky-console.github.io',
] as const;

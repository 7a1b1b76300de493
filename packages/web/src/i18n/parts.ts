// The locale files are written whole (one per language, every visible string), but the page loads
// them in two parts: what the login page shows, then the rest once signed in. The login page is
// the first thing a user's browser downloads (often over a slow link to a home box), and the
// module screens' strings are most of each file. The build makes the parts (vite.config.ts,
// `localeParts`); the shell waits for the rest before it renders anything past the login page.

/** Namespaces the login page and the frame around it use (top bar, title, language, errors). */
export const LOGIN_NAMESPACES: readonly string[] = ['common', 'errors', 'login', 'logout', 'menu', 'shell', 'title'];

export const LOCALE_PARTS = ['login', 'rest'] as const;
export type LocalePart = (typeof LOCALE_PARTS)[number];

/** The namespaces of `messages` that belong to `part`; every namespace is in exactly one part. */
export function localePart<T>(messages: Record<string, T>, part: LocalePart): Record<string, T> {
  const inLogin = (ns: string) => LOGIN_NAMESPACES.includes(ns);
  return Object.fromEntries(Object.entries(messages).filter(([ns]) => inLogin(ns) === (part === 'login')));
}

/** The id a screen imports a part by: `virtual:locale-part/<lang>-<part>` (its chunk: <lang>-<part>-<hash>.js). */
export const LOCALE_PART_PREFIX = 'virtual:locale-part/';

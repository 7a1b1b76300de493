// The HTTP-01 board (RFC 8555 §8.3): tokens an ACME order is waiting to have fetched, with their
// key authorizations. Every plain-HTTP listener that may face the CA (the web service's rules, the
// admin console, ACME's stand-alone responder) answers `GET /.well-known/acme-challenge/<token>`
// from it before anything else, and only for tokens on the board; every other request is untouched.

/** The path prefix the CA asks under. */
export const ACME_CHALLENGE_PREFIX = '/.well-known/acme-challenge/';

/** base64url without padding: what RFC 8555 tokens are (and nothing that could climb a path). */
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

export class ChallengeBoard {
  private readonly tokens = new Map<string, string>();
  private readonly listeners = new Set<() => void>();

  set(token: string, keyAuthorization: string): void {
    if (!TOKEN.test(token)) throw new Error('an ACME token is base64url');
    this.tokens.set(token, keyAuthorization);
    this.changed();
  }

  delete(token: string): void {
    if (this.tokens.delete(token)) this.changed();
  }

  get(token: string): string | undefined {
    return this.tokens.get(token);
  }

  /** Tokens waiting now (the admin listener lets CAs outside the LAN in while there are some). */
  get size(): number {
    return this.tokens.size;
  }

  /** Every token and its key authorization (a web service helper process gets a copy). */
  entries(): [string, string][] {
    return [...this.tokens];
  }

  /** Called after every change; answers the unsubscribe. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}

/** Where answers come from: the board itself, or a helper process's copy of it. */
export type ChallengeLookup = (token: string) => string | undefined;

/**
 * The key authorization to answer for a request, or undefined when the request is not an HTTP-01
 * fetch of a token on the board (then it goes on as if this check did not exist).
 */
export function challengeAnswer(
  lookup: ChallengeLookup | undefined,
  method: string | undefined,
  url: string | undefined,
  encrypted: boolean,
): string | undefined {
  if (!lookup || encrypted || (method !== 'GET' && method !== 'HEAD') || !url?.startsWith(ACME_CHALLENGE_PREFIX))
    return undefined;
  const token = url.slice(ACME_CHALLENGE_PREFIX.length);
  return TOKEN.test(token) ? lookup(token) : undefined;
}

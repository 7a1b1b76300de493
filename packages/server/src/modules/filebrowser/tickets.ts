import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a read ticket is good for. */
export const TICKET_MS = 60 * 60 * 1000;

/**
 * Read tickets: what lets `<img>`, `<video>` and plain download links (which send no
 * Authorization header) read files of one storage for an hour. A ticket is
 * `<expiry ms>.<HMAC-SHA256(storage, expiry)>` under a key drawn when the module starts, so a
 * restart of the module (or the program) voids every ticket, and nothing is stored per ticket.
 */
export class Tickets {
  private readonly key = randomBytes(32);

  constructor(private readonly now: () => number = () => Date.now()) {}

  issue(storage: string): { ticket: string; expiresAt: number } {
    const expiresAt = this.now() + TICKET_MS;
    return { ticket: `${expiresAt}.${this.mac(storage, expiresAt).toString('base64url')}`, expiresAt };
  }

  /** Whether `ticket` was issued here for `storage` and has not expired. */
  valid(ticket: string, storage: string): boolean {
    const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
    if (!m) return false;
    const expiresAt = Number(m[1]);
    if (!(expiresAt > this.now())) return false;
    const given = Buffer.from(m[2], 'base64url');
    const want = this.mac(storage, expiresAt);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  // The storage key and the expiry with a separator no key contains, so no two pairs sign alike.
  private mac(storage: string, expiresAt: number): Buffer {
    return createHmac('sha256', this.key).update(`${storage}\n${expiresAt}`).digest();
  }
}

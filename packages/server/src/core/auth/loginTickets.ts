import { createHash, randomBytes } from 'node:crypto';
import { LOGIN_TICKET_SECONDS } from '@lucky/shared';

interface Held {
  account: string;
  /** Who asked for it (the audit names it when the ticket is used). */
  issuer: string;
  expires: number;
}

/** Tickets outstanding at most; the oldest go first (each lives 60 s anyway). */
const MAX_HELD = 256;

const hash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * One-time login tickets (`POST /api/login/link` → `POST /api/login/ticket`): 256 random bits,
 * handed out once; only their SHA-256 is kept, in memory, for LOGIN_TICKET_SECONDS. A ticket
 * is taken out of the map by its first use, good or late, so it can never be used twice.
 */
export class LoginTickets {
  private held = new Map<string, Held>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(account: string, issuer: string): { ticket: string; expiresAt: Date } {
    this.prune();
    while (this.held.size >= MAX_HELD) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.held.delete(oldest);
    }
    const ticket = randomBytes(32).toString('base64url');
    const expires = this.now() + LOGIN_TICKET_SECONDS * 1000;
    this.held.set(hash(ticket), { account, issuer, expires });
    return { ticket, expiresAt: new Date(expires) };
  }

  /** The ticket's account and issuer when it is good now; undefined when used, expired or unknown. */
  take(ticket: string): { account: string; issuer: string } | undefined {
    const h = hash(ticket);
    const held = this.held.get(h);
    this.held.delete(h);
    if (!held || held.expires <= this.now()) return undefined;
    return { account: held.account, issuer: held.issuer };
  }

  private prune(): void {
    const now = this.now();
    for (const [h, t] of this.held) if (t.expires <= now) this.held.delete(h);
  }
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomicWrite.js';
import type { ApiTokenRecord } from '../config/schema.js';
import { signJwt, verifyJwt } from './jwt.js';

export interface Session {
  id: string;
  account: string;
  createdAt: string;
  expiresAt: string;
  clientIp: string;
}

export const API_TOKEN_PREFIX = 'lkt_';
const SECRET_FILE = 'jwt.secret';
const SESSIONS_FILE = 'sessions.json';

/** Read the per-install JWT secret, creating it (0600) on first start. */
export async function loadJwtSecret(configDir: string): Promise<Uint8Array> {
  const file = path.join(configDir, SECRET_FILE);
  try {
    const b = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
    if (b.length >= 32) return new Uint8Array(b);
  } catch {
    // missing: create below
  }
  const secret = randomBytes(32);
  await writeFileAtomic(file, `${secret.toString('base64')}\n`, 0o600);
  return new Uint8Array(secret);
}

/**
 * Login sessions. A token is a JWT signed with this install's secret naming a
 * session id; the session must still exist here, so logout, password change
 * and revocation take effect at once. Sessions are saved to disk so a
 * restart does not log the administrator out.
 */
export class SessionStore {
  private sessions = new Map<string, Session>();

  constructor(
    private readonly configDir: string,
    private readonly secret: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {}

  private get file(): string {
    return path.join(this.configDir, SESSIONS_FILE);
  }

  async load(): Promise<void> {
    try {
      const list = JSON.parse(await fs.readFile(this.file, 'utf8')) as Session[];
      for (const s of list) if (Date.parse(s.expiresAt) > this.now()) this.sessions.set(s.id, s);
    } catch {
      // missing or unreadable: nobody is logged in, which is safe
    }
  }

  async create(account: string, clientIp: string, lifetimeHours: number): Promise<{ token: string; session: Session }> {
    const id = randomBytes(12).toString('base64url');
    const created = this.now();
    const expires = created + lifetimeHours * 3600_000;
    const session: Session = {
      id,
      account,
      clientIp,
      createdAt: new Date(created).toISOString(),
      expiresAt: new Date(expires).toISOString(),
    };
    const token = signJwt(
      { sub: account, sid: id, iat: Math.floor(created / 1000), exp: Math.floor(expires / 1000) },
      this.secret,
    );
    this.sessions.set(id, session);
    await this.save();
    return { token, session };
  }

  /** The live session a JWT names, or undefined (bad signature, expired, revoked, other account). */
  async verify(token: string, account: string): Promise<Session | undefined> {
    const claims = verifyJwt(token, this.secret, this.now());
    const s = claims ? this.sessions.get(claims.sid) : undefined;
    if (!s || s.account !== account || claims?.sub !== account) return undefined;
    if (Date.parse(s.expiresAt) <= this.now()) {
      this.sessions.delete(s.id);
      return undefined;
    }
    return s;
  }

  list(): Session[] {
    const now = this.now();
    return [...this.sessions.values()].filter((s) => Date.parse(s.expiresAt) > now);
  }

  async revoke(id: string): Promise<boolean> {
    const had = this.sessions.delete(id);
    if (had) await this.save();
    return had;
  }

  /** Revoke all sessions except `keep` (password change keeps the one that made it). */
  async revokeAll(keep?: string): Promise<void> {
    for (const id of [...this.sessions.keys()]) if (id !== keep) this.sessions.delete(id);
    await this.save();
  }

  private async save(): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify(this.list(), null, 1), 0o600);
  }
}

/** API tokens (automation): `lkt_<id>_<secret>`; only sha256(secret) is stored. */
export function makeApiToken(): { id: string; token: string; hash: string } {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  return { id, token: `${API_TOKEN_PREFIX}${id}_${secret}`, hash: sha256(secret) };
}

export function matchApiToken(token: string, records: ApiTokenRecord[]): ApiTokenRecord | undefined {
  const m = /^lkt_([0-9a-f]{12})_([A-Za-z0-9_-]{20,64})$/.exec(token);
  if (!m) return undefined;
  const rec = records.find((r) => r.id === m[1]);
  if (!rec) return undefined;
  const a = Buffer.from(sha256(m[2]), 'hex');
  const b = Buffer.from(rec.hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? rec : undefined;
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

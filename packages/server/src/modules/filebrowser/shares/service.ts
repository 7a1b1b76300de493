// What the share links keep while the module runs: the cookie key, the password throttle and the
// download counts. One per runtime (`rt.shares`; a new runtime draws a new key: a restart ends the cookies).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FilebrowserShare } from '@lucky/shared';
import type { FilebrowserRuntime } from '../runtime.js';
import { type ShareState, shareStateFor } from './state.js';
import { SharePasswordThrottle } from './throttle.js';

/** How long a password cookie is good for. */
export const COOKIE_MS = 12 * 3600_000;
export const COOKIE_NAME = 'lucky_share';

export class ShareService {
  readonly throttle: SharePasswordThrottle;
  readonly state: ShareState;
  private readonly key = randomBytes(32);

  constructor(rt: FilebrowserRuntime) {
    this.throttle = new SharePasswordThrottle(() => ({
      maxFailures: rt.config.sharePasswordMaxFailures,
      lockMs: rt.config.sharePasswordLockMinutes * 60_000,
    }));
    this.state = shareStateFor(rt.ctx.configDir);
    // Counts of the last seconds reach the file when the module stops.
    rt.ctx.signal.addEventListener('abort', () => this.state.flushSync(), { once: true });
  }

  /**
   * The cookie a right password earns: issued time + HMAC over the link's id, its stored password
   * hash (a new password is a new hash: old cookies stop working) and that time.
   */
  cookieFor(share: FilebrowserShare, now = Date.now()): string {
    return `${now}.${this.mac(share, now)}`;
  }

  cookieValid(share: FilebrowserShare, value: string | undefined, now = Date.now()): boolean {
    if (!value) return false;
    const dot = value.indexOf('.');
    const issued = Number(value.slice(0, dot));
    if (dot < 1 || !Number.isSafeInteger(issued) || issued > now || now - issued > COOKIE_MS) return false;
    const given = Buffer.from(value.slice(dot + 1));
    const want = Buffer.from(this.mac(share, issued));
    return given.length === want.length && timingSafeEqual(given, want);
  }

  private mac(share: FilebrowserShare, issued: number): string {
    return createHmac('sha256', this.key).update(`${share.id}\0${share.password}\0${issued}`).digest('base64url');
  }
}

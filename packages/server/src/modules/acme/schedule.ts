// When a certificate is due: never issued (or its names changed), past `notAfter -
// renewDaysBefore` (for a certificate living shorter than three times that, with a third of its
// life left, so a short-lived one is not renewed over and over), or at a random time inside the CA's ARI window (RFC 9773 §4.2) when that
// opens earlier; after a failure, the back-off's time (5 min doubling to 24 h, or the CA's
// Retry-After when later).
import type { AcmeCertificate } from '@lucky/shared';
import type { CertState } from './state.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
export const BACKOFF_FIRST_MS = 5 * MINUTE;
export const BACKOFF_MAX_MS = DAY;

/** The pause after the n-th failure in a row (n >= 1). */
export function backoffMs(failures: number, retryAfterMs = 0): number {
  const own = Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(failures - 1, 0), BACKOFF_MAX_MS);
  return Math.max(own, Math.min(retryAfterMs, BACKOFF_MAX_MS));
}

const sameNames = (a: readonly string[] | undefined, b: readonly string[]) =>
  !!a && a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');

/** Whether the issued certificate (if any) still covers what is configured. */
export function covers(cert: AcmeCertificate, s: CertState): boolean {
  return !!s.notAfter && !s.revoked && sameNames(s.names, cert.names);
}

/** A random instant inside the window (ARI: spread the CA's load, RFC 9773 §4.2). */
export function pickInWindow(w: { start: string; end: string }, random = Math.random): string {
  const a = Date.parse(w.start);
  const b = Math.max(Date.parse(w.end), a);
  return new Date(a + Math.floor((b - a) * random())).toISOString();
}

/** When the certificate should next be ordered (ms since the epoch), ignoring back-off. */
export function renewalAt(cert: AcmeCertificate, s: CertState): number {
  if (!covers(cert, s)) return 0;
  const notAfter = Date.parse(s.notAfter as string);
  const life = s.notBefore ? notAfter - Date.parse(s.notBefore) : Number.POSITIVE_INFINITY;
  const byDays = notAfter - Math.min(cert.renewDaysBefore * DAY, life / 3);
  const byAri = cert.useAri && s.ariPick ? Date.parse(s.ariPick) : Number.POSITIVE_INFINITY;
  return Math.min(byDays, byAri);
}

/** The next try: the renewal time, or the back-off's while failing (whichever is later). */
export function nextTry(cert: AcmeCertificate, s: CertState): number {
  const due = renewalAt(cert, s);
  if (s.failures > 0 && s.nextRenewalAt) return Math.max(due, Date.parse(s.nextRenewalAt));
  return due;
}

// What the device cards show, as data: the online badge, where a "wake and wait" stands (seconds
// left, from the server's deadline), and the curl line a phone shortcut runs with an API token.
import type { WolDeviceState, WolOnline } from '@lucky/shared';

/** antd tag colour of an online state. */
export const ONLINE_COLOR: Record<WolOnline, string> = { online: 'success', offline: 'default', unknown: 'warning' };

export type WakeView =
  | { phase: 'idle' }
  | { phase: 'waiting'; secondsLeft: number }
  | { phase: 'online'; seconds: number | undefined }
  | { phase: 'timeout' | 'failed' };

/** The device's last "wake and wait" as the card shows it; `now` in epoch ms. */
export function wakeView(state: WolDeviceState | undefined, now: number): WakeView {
  const w = state?.wake;
  if (!w) return { phase: 'idle' };
  if (w.phase === 'waiting') {
    const left = Math.ceil((Date.parse(w.deadline) - now) / 1000);
    return { phase: 'waiting', secondsLeft: Math.max(0, Number.isFinite(left) ? left : 0) };
  }
  if (w.phase === 'online') return { phase: 'online', seconds: w.seconds };
  return { phase: w.phase };
}

/** Some device waits to come online: the screen polls quickly meanwhile. */
export const anyWaiting = (states: Record<string, WolDeviceState> | undefined): boolean =>
  Object.values(states ?? {}).some((s) => s.wake?.phase === 'waiting');

/** The console's own address as the browser reached it, safe entrance included (no hash). */
export function consoleBase(href: string): string {
  const u = new URL(href);
  u.hash = '';
  u.search = '';
  // The page may be `/entrance/index.html`; the API sits beside it.
  u.pathname = u.pathname.replace(/[^/]*$/, '');
  return u.toString();
}

/** The shell word for a value inside single quotes. */
const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The call a phone shortcut makes to wake a device: POST with an API token (made on the security
 * screen) in the Authorization header; `token` is a placeholder the user replaces.
 */
export function wakeCurl(base: string, deviceKey: string, token: string): string {
  const url = new URL(`api/wol/devices/${encodeURIComponent(deviceKey)}/wake`, base).toString();
  return `curl -fsS -X POST -H ${quoted(`Authorization: ${token}`)} ${quoted(url)}`;
}

// The about page's remote information check (spec §4), as pure logic with its
// I/O injected so the race is unit-tested with fake timers:
// - every candidate host is asked in parallel for `<host>/app/v2?_=<time>`;
// - hosts other than the default (the first) start 300 ms later, which
//   favours the default;
// - the fastest reply with ret 0 and well-formed data wins;
// - otherwise the default host is used, the local view is shown and the
//   versions read 'unknow'. Failure reasons are only logged, never shown.
import { REMOTE_HOST_DELAY_MS } from '@lucky/shared';

export const ALL_FAILED = 'All requests failed';
export const ALL_INVALID = 'All successful requests returned invalid data';
/** The spec's literal placeholder for a version nobody could tell us. */
export const UNKNOWN_VERSION = 'unknow';

export interface RemoteInfo {
  lastVersion: [string, string];
  V2L: string;
  staticHost: string;
  appinfourl: string;
}

export interface RemoteCheckResult extends RemoteInfo {
  showAboutView: boolean;
  showLocalView: boolean;
}

export interface RaceDeps {
  /** GET a URL and parse JSON; rejects on any transport or HTTP failure. */
  fetchJson: (url: string, signal: AbortSignal) => Promise<unknown>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  log?: (...args: unknown[]) => void;
  delayMs?: number;
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

export function remoteInfoUrl(host: string, time: number): string {
  return `${host.replace(/\/+$/, '')}/app/v2?_=${time}`;
}

/** The reply's info when ret is 0 and every field has the expected type, else null. */
export function validRemoteInfo(data: unknown): RemoteInfo | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (d.ret !== 0) return null;
  const versions = d.lastVersion;
  if (
    !Array.isArray(versions) ||
    versions.length < 2 ||
    !versions.slice(0, 2).every((v) => typeof v === 'string' && v !== '')
  ) {
    return null;
  }
  if (typeof d.V2L !== 'string' || typeof d.staticHost !== 'string' || typeof d.appinfourl !== 'string') return null;
  return {
    lastVersion: [versions[0] as string, versions[1] as string],
    V2L: d.V2L,
    staticHost: d.staticHost,
    appinfourl: d.appinfourl,
  };
}

/** Resolves with the winning host's info, or rejects with ALL_FAILED / ALL_INVALID. */
export function raceRemoteHosts(hosts: readonly string[], deps: RaceDeps): Promise<RemoteInfo & { host: string }> {
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? Date.now;
  const delay = deps.delayMs ?? REMOTE_HOST_DELAY_MS;
  const controller = new AbortController();

  return new Promise((resolve, reject) => {
    if (hosts.length === 0) {
      reject(new Error(ALL_FAILED));
      return;
    }
    let pending = hosts.length;
    let answered = 0;
    let settled = false;

    const finishOne = () => {
      pending--;
      if (pending === 0 && !settled) {
        settled = true;
        reject(new Error(answered > 0 ? ALL_INVALID : ALL_FAILED));
      }
    };

    hosts.forEach(async (host, index) => {
      try {
        if (index > 0) await sleep(delay, controller.signal);
        const data = await deps.fetchJson(remoteInfoUrl(host, now()), controller.signal);
        answered++;
        const info = validRemoteInfo(data);
        if (info && !settled) {
          settled = true;
          // The others lost the race; stop them.
          controller.abort();
          resolve({ ...info, host });
          return;
        }
        if (!info) deps.log?.('remote info: invalid reply from', host);
      } catch (err) {
        if (!settled) deps.log?.('remote info: request failed for', host, err);
      }
      finishOne();
    });
  });
}

/** The whole check with the fallback; never rejects. */
export async function checkRemoteInfo(hosts: readonly string[], deps: RaceDeps): Promise<RemoteCheckResult> {
  try {
    const won = await raceRemoteHosts(hosts, deps);
    return {
      lastVersion: won.lastVersion,
      V2L: won.V2L,
      staticHost: won.staticHost || won.host,
      appinfourl: won.appinfourl,
      showAboutView: true,
      showLocalView: false,
    };
  } catch (err) {
    // 'All requests failed' / 'All successful requests returned invalid data' go to the console only (spec §8).
    (deps.log ?? console.log)((err as Error).message);
    return {
      lastVersion: [UNKNOWN_VERSION, UNKNOWN_VERSION],
      V2L: '',
      staticHost: hosts[0] ?? '',
      appinfourl: '',
      showAboutView: false,
      showLocalView: true,
    };
  }
}

/** Browser fetch for third-party hosts: no token, no cookies, no referrer, 5 s like every call. */
export async function fetchRemoteJson(url: string, signal: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(5000);
  const res = await fetch(url, {
    cache: 'no-store',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
    signal: AbortSignal.any([signal, timeout]),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

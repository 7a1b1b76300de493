import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ALL_FAILED,
  ALL_INVALID,
  checkRemoteInfo,
  raceRemoteHosts,
  remoteInfoUrl,
  UNKNOWN_VERSION,
  validRemoteInfo,
} from './remoteCheck';

const HOSTS = ['https://default.example', 'https://second.example', 'https://third.example/'];

const good = (tag: string) => ({
  ret: 0,
  lastVersion: [`2.${tag}.0`, `2.${tag}.1-beta`],
  V2L: `v2l-${tag}`,
  staticHost: `https://static-${tag}.example`,
  appinfourl: `https://info-${tag}.example`,
});

type Reply = { after: number; data?: unknown; fail?: boolean };

/** fetchJson that answers each host after its own delay (ms after the request starts). */
function fakeHosts(replies: Record<string, Reply>) {
  const started: { url: string; at: number }[] = [];
  const fetchJson = vi.fn((url: string, signal: AbortSignal) => {
    started.push({ url, at: Date.now() });
    const host = Object.keys(replies).find((h) => url.startsWith(h.replace(/\/+$/, '')));
    const r = host ? replies[host] : { after: 0, fail: true };
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => (r.fail ? reject(new Error('down')) : resolve(r.data)), r.after);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      });
    });
  });
  return { fetchJson, started };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('remote info race', () => {
  it('asks <host>/app/v2 with a time-busting parameter', () => {
    expect(remoteInfoUrl('https://h.example/', 42)).toBe('https://h.example/app/v2?_=42');
  });

  it('starts the default host at once and the others 300 ms later, in parallel', async () => {
    const { fetchJson, started } = fakeHosts({
      [HOSTS[0]]: { after: 1000, fail: true },
      [HOSTS[1]]: { after: 1000, fail: true },
      [HOSTS[2]]: { after: 1000, fail: true },
    });
    const p = raceRemoteHosts(HOSTS, { fetchJson }).catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(0);
    expect(started.map((s) => s.url)).toEqual([`${HOSTS[0]}/app/v2?_=1000000`]);
    await vi.advanceTimersByTimeAsync(299);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((s) => s.url)).toEqual([
      `${HOSTS[0]}/app/v2?_=1000000`,
      'https://second.example/app/v2?_=1000300',
      'https://third.example/app/v2?_=1000300',
    ]);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(p).resolves.toBe(ALL_FAILED);
  });

  it('the delay favours the default: equal answer times → the default wins', async () => {
    const { fetchJson } = fakeHosts({
      [HOSTS[0]]: { after: 200, data: good('0') },
      [HOSTS[1]]: { after: 200, data: good('1') },
      [HOSTS[2]]: { after: 200, data: good('2') },
    });
    const p = raceRemoteHosts(HOSTS, { fetchJson });
    await vi.advanceTimersByTimeAsync(600);
    await expect(p).resolves.toMatchObject({ host: HOSTS[0], V2L: 'v2l-0' });
  });

  it('the fastest valid reply wins when the default is slow', async () => {
    const { fetchJson } = fakeHosts({
      [HOSTS[0]]: { after: 3000, data: good('0') },
      [HOSTS[1]]: { after: 500, data: good('1') },
      [HOSTS[2]]: { after: 100, data: good('2') },
    });
    const p = raceRemoteHosts(HOSTS, { fetchJson });
    await vi.advanceTimersByTimeAsync(400);
    await expect(p).resolves.toMatchObject({ host: HOSTS[2], lastVersion: ['2.2.0', '2.2.1-beta'] });
  });

  it('skips replies with ret ≠ 0 or malformed data and takes the next valid one', async () => {
    const { fetchJson } = fakeHosts({
      [HOSTS[0]]: { after: 10, data: { ...good('0'), ret: 1 } },
      [HOSTS[1]]: { after: 10, data: { ret: 0, lastVersion: 'oops' } },
      [HOSTS[2]]: { after: 900, data: good('2') },
    });
    const p = raceRemoteHosts(HOSTS, { fetchJson });
    await vi.advanceTimersByTimeAsync(1300);
    await expect(p).resolves.toMatchObject({ host: HOSTS[2] });
  });

  it("rejects with 'All requests failed' when no host answers", async () => {
    const { fetchJson } = fakeHosts({});
    const p = raceRemoteHosts(HOSTS, { fetchJson }).catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(400);
    await expect(p).resolves.toBe(ALL_FAILED);
  });

  it("rejects with 'All successful requests returned invalid data' when answers are all invalid", async () => {
    const { fetchJson } = fakeHosts({
      [HOSTS[0]]: { after: 10, data: { ret: 0 } },
      [HOSTS[1]]: { after: 10, fail: true },
      [HOSTS[2]]: { after: 10, data: '<html>' },
    });
    const p = raceRemoteHosts(HOSTS, { fetchJson }).catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(400);
    await expect(p).resolves.toBe(ALL_INVALID);
  });
});

describe('remote info check with fallback', () => {
  it('stores the winner with the about view on and the local view off', async () => {
    const { fetchJson } = fakeHosts({ [HOSTS[0]]: { after: 50, data: good('0') } });
    const p = checkRemoteInfo(HOSTS, { fetchJson, log: () => {} });
    await vi.advanceTimersByTimeAsync(50);
    await expect(p).resolves.toEqual({
      lastVersion: ['2.0.0', '2.0.1-beta'],
      V2L: 'v2l-0',
      staticHost: 'https://static-0.example',
      appinfourl: 'https://info-0.example',
      showAboutView: true,
      showLocalView: false,
    });
  });

  it("falls back to the default host, the local view and 'unknow' versions, logging the reason only", async () => {
    const log = vi.fn();
    const { fetchJson } = fakeHosts({});
    const p = checkRemoteInfo(HOSTS, { fetchJson, log });
    await vi.advanceTimersByTimeAsync(400);
    await expect(p).resolves.toEqual({
      lastVersion: [UNKNOWN_VERSION, UNKNOWN_VERSION],
      V2L: '',
      staticHost: HOSTS[0],
      appinfourl: '',
      showAboutView: false,
      showLocalView: true,
    });
    expect(UNKNOWN_VERSION).toBe('unknow');
    expect(log).toHaveBeenLastCalledWith(ALL_FAILED);
  });

  it('falls back as well when every answer is invalid', async () => {
    const log = vi.fn();
    const { fetchJson } = fakeHosts({
      [HOSTS[0]]: { after: 1, data: { ret: 3 } },
      [HOSTS[1]]: { after: 1, data: { ret: 3 } },
      [HOSTS[2]]: { after: 1, data: { ret: 3 } },
    });
    const p = checkRemoteInfo(HOSTS, { fetchJson, log });
    await vi.advanceTimersByTimeAsync(400);
    await expect(p).resolves.toMatchObject({ showAboutView: false, showLocalView: true, staticHost: HOSTS[0] });
    expect(log).toHaveBeenLastCalledWith(ALL_INVALID);
  });
});

describe('validRemoteInfo', () => {
  it('accepts ret 0 with two versions and string fields', () => {
    expect(validRemoteInfo(good('9'))).toMatchObject({ V2L: 'v2l-9' });
  });
  it.each([
    null,
    'text',
    { ...good('1'), ret: 1 },
    { ...good('1'), lastVersion: ['only-one'] },
    { ...good('1'), lastVersion: ['1', 2] },
    { ...good('1'), V2L: 5 },
    { ...good('1'), staticHost: undefined },
  ])('rejects %j', (v) => {
    expect(validRemoteInfo(v)).toBeNull();
  });
});

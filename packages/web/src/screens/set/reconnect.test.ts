import { describe, expect, it, vi } from 'vitest';
import { entranceUrl, firstAnswering, healthUrl, urlWithPort, waitForRestart } from './reconnect';

/** A clock driven by the fake sleep, so the loop runs instantly. */
function clock() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

describe('waiting for the program to come back', () => {
  it('waits for the down phase, then for the first healthy answer', async () => {
    const answers = [true, true, false, false, false, true];
    const probe = vi.fn(async () => answers.shift() ?? true);
    const c = clock();
    await expect(waitForRestart({ probe, ...c })).resolves.toBe(true);
    expect(probe).toHaveBeenCalledTimes(6);
    expect(c.now()).toBe(5000);
  });

  it('does not hang when the restart was too fast to see', async () => {
    const probe = vi.fn(async () => true);
    const c = clock();
    await expect(waitForRestart({ probe, ...c, downWindowMs: 3000 })).resolves.toBe(true);
    expect(c.now()).toBe(3000);
  });

  it('gives up after the time-out', async () => {
    const probe = vi.fn(async () => false);
    const c = clock();
    await expect(waitForRestart({ probe, ...c, timeoutMs: 10_000 })).resolves.toBe(false);
    expect(c.now()).toBe(10_000);
  });
});

describe('addresses after a restart', () => {
  it('moves to the port the server returned, keeping path and hash', () => {
    expect(urlWithPort('http://192.168.1.2:16601/entry/#/set', 16602)).toBe('http://192.168.1.2:16602/entry/#/set');
    expect(urlWithPort('http://[fd00::1]:16601/#/set', 8080)).toBe('http://[fd00::1]:8080/#/set');
    expect(urlWithPort('http://h:16601/#/set')).toBe('http://h:16601/#/set');
  });

  it('probes api/health next to the page', () => {
    expect(healthUrl('https://h:16601/entry/#/set')).toMatch(/^https:\/\/h:16601\/entry\/api\/health\?_=\d+$/);
  });

  it('swaps the security entrance in the path', () => {
    expect(entranceUrl('http://h:1/#/set', '', 'secret')).toBe('http://h:1/secret/#/set');
    expect(entranceUrl('http://h:1/old/#/set', 'old', 'new')).toBe('http://h:1/new/#/set');
    expect(entranceUrl('http://h:1/old/#/set', 'old', '')).toBe('http://h:1/#/set');
    expect(entranceUrl('http://h:1/proxy/old/#/set', 'old', 'x')).toBe('http://h:1/proxy/x/#/set');
  });
});

describe('several candidate addresses', () => {
  it('reports the first address that answers, preferring the announced one', async () => {
    const up = new Set<string>(['http://h:1/']);
    const c = firstAnswering(['http://h:2/', 'http://h:1/', 'http://h:1/'], (href) => async () => up.has(href));
    await expect(c.probe()).resolves.toBe(true);
    expect(c.answered()).toBe('http://h:1/');
    up.add('http://h:2/');
    await c.probe();
    expect(c.answered()).toBe('http://h:2/');
    up.clear();
    await expect(c.probe()).resolves.toBe(false);
    expect(c.answered()).toBeNull();
  });
});

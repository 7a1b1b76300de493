// Auto-ban from the web service's basic auth when helper processes serve (helperPool.ts): a helper
// has no security lists of its own, so it reports each wrong password with its log lines and the
// server process counts it. A loopback client (127.0.0.5, LAN: `banLan` on for this test) sends
// more wrong passwords than the server process alone would see, on fresh connections that the
// server process hands out in turns (a helper takes two of every three).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './portforward-helpers.js';
import { type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const saved = { n: process.env.LUCKY_WEB_HELPERS, start: process.env.LUCKY_WEB_HELPERS_START };
const CLIENT = '127.0.0.5';
const FAILURES = 5;
let rp: Rp;
let port: number;

/** One request on its own connection from `from`: the status, 0 when the connection was reset. */
function attempt(auth: string, from = CLIENT): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        localAddress: from,
        agent: false,
        headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
  });
}

beforeAll(async () => {
  process.env.LUCKY_WEB_HELPERS = '1';
  process.env.LUCKY_WEB_HELPERS_START = 'eager';
  rp = await startRp();
  await rp.s.server.core.store.update((d) => {
    d.safe.autoBan = { enabled: true, failures: FAILURES, windowMinutes: 10, banMinutes: 5, banLan: true };
    return d;
  });
  port = await freePort();
  await rp.addRule({
    port,
    defaultRule: {
      serviceType: 'text',
      text: 'web ok',
      basicAuth: { enabled: true, user: 'u', password: 'web-secret', paths: [] },
    },
  });
  await waitFor(
    async () => JSON.stringify((await rp.call('GET', '/api/status')).body),
    (body) => body.includes('"helperProcesses":1'),
    { timeout: 10_000, interval: 100, what: 'a helper process' },
  );
}, 30_000);

afterAll(async () => {
  await rp?.close();
  process.env.LUCKY_WEB_HELPERS = saved.n;
  process.env.LUCKY_WEB_HELPERS_START = saved.start;
  if (saved.n === undefined) delete process.env.LUCKY_WEB_HELPERS;
  if (saved.start === undefined) delete process.env.LUCKY_WEB_HELPERS_START;
});

describe('basic-auth failures served by a helper process', () => {
  it('count toward auto-ban in the server process, which then refuses the address at accept', async () => {
    const gate = rp.s.server.core.safe;
    // Six wrong passwords: the server process itself serves at most a third of them (two), fewer
    // than FAILURES, so the ban needs the helper's reports.
    for (let i = 0; i < 6; i++) expect(await attempt(`u:wrong-${i}`)).toBe(401);
    await waitFor(
      () => gate.decide(CLIENT, 'reverseproxy').rule,
      (rule) => rule === 'ban',
      { what: 'the ban of the client' },
    );
    expect(await attempt('u:web-secret')).toBe(0);
    // Another address is served as before.
    expect(await attempt('u:web-secret', '127.0.0.6')).toBe(200);
  });
});

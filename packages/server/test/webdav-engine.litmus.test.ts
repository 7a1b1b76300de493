// litmus (Debian's WebDAV conformance suite) against the engine on the toolkit's listener over a
// local storage: every suite — basic, copymove, props, locks, http — must pass with no failure
// and no warning, as it does against Apache mod_dav.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DavServer, run, startDav } from './webdav-engine-helpers.js';

interface Suite {
  run: number;
  passed: number;
  failed: number;
  /** Test names that failed, with litmus's reason. */
  failures: string[];
  warnings: string[];
}

/** litmus's report per suite: its summary line, the FAIL lines and the WARNING lines under it. */
function parseLitmus(out: string): Map<string, Suite> {
  const suites = new Map<string, Suite>();
  let current: Suite | undefined;
  for (const line of out.split('\n')) {
    const start = /^-> running `([^']+)':/.exec(line);
    if (start) {
      current = { run: 0, passed: 0, failed: 0, failures: [], warnings: [] };
      suites.set(start[1], current);
      continue;
    }
    if (!current) continue;
    const summary = /^<- summary for `[^']+': of (\d+) tests run: (\d+) passed, (\d+) failed/.exec(line);
    if (summary) {
      current.run = Number(summary[1]);
      current.passed = Number(summary[2]);
      current.failed = Number(summary[3]);
    } else if (/\bFAIL\b/.test(line)) current.failures.push(line.trim());
    else if (/WARNING:/.test(line)) current.warnings.push(line.trim());
  }
  return suites;
}

let dav: DavServer;
let out: string;

beforeAll(async () => {
  dav = await startDav({ prefix: '/dav' });
  const r = await run('litmus', [`${dav.origin}/dav/files/`], { timeoutMs: 60_000, cwd: '/tmp' });
  out = r.stdout + r.stderr;
}, 90_000);
afterAll(() => dav?.close());

describe('litmus', () => {
  const expected = { basic: 16, copymove: 13, props: 30, locks: 41, http: 4 };
  for (const [name, count] of Object.entries(expected)) {
    it(`${name}: every test passes, no warning`, () => {
      const suite = parseLitmus(out).get(name);
      expect(suite, out.slice(-3000)).toBeDefined();
      expect(suite?.failures, out.slice(-3000)).toEqual([]);
      expect(suite?.warnings).toEqual([]);
      expect(suite).toMatchObject({ run: count, passed: count, failed: 0 });
    });
  }

  it('leaves no lock behind once its tests unlocked', () => {
    expect(dav.locks.size).toBe(0);
  });
});

// Guard (issue 13): every refusal of every route names a code, and the browser can show that
// code in both languages. Each route of the registry (core and every module of THE list) is
// called with bodies and queries of the wrong shape and with unknown keys; every answer that is
// not a success must carry `code`, a known translation for it, and never be a 500.
import { BUILT_MODULES } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { untranslated } from './contract-helpers.js';

/** Calls a walk must not make: they end the session or the process, or start long work. */
const SKIP = new Set([
  'POST /api/logout',
  'PUT /api/logout',
  'GET /api/reboot_program',
  'POST /api/reboot_program',
  'GET /api/configure',
  'PUT /api/configure',
  'POST /api/configure',
]);

const BAD_BODIES: unknown[] = [[], { name: 7, enabled: 'yes', port: -1, key: '../x' }, 'text'];

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.login();
});
afterAll(async () => s?.close());

/** The module whose vocabulary names a route's codes (its path's first segment), else the core's. */
/** Core areas with a vocabulary of their own (shared/src/safe.ts: `safe.err_<code>`), besides the modules. */
const CORE_NAMESPACES = ['safe'];
const nsOf = (p: string) => {
  const seg = p.split('/')[2];
  return (BUILT_MODULES as readonly string[]).includes(seg) || CORE_NAMESPACES.includes(seg) ? seg : 'errors';
};

describe('contract: route failures are coded and translated', () => {
  it('every refusal of every route names a code both locale files translate, and none is a 500', async () => {
    const problems: string[] = [];
    const routes = s.server.admin.registry.routes.filter((r) => !SKIP.has(`${r.method} ${r.path}`));
    expect(routes.length).toBeGreaterThan(40);
    let refusals = 0;
    const seen = new Set<string>();
    for (const r of routes) {
      const p = r.path.replace(/:(\w+)/g, 'noSuchKey0');
      const tries: { body?: unknown; query?: string }[] =
        r.method === 'GET' || r.method === 'DELETE' || r.method === 'HEAD'
          ? [{ query: '?page=abc&pageSize=-1&key=..%2Fx&id=zz' }, {}]
          : BAD_BODIES.map((body) => ({ body }));
      for (const t of tries) {
        const res = await s.call(r.method, p + (t.query ?? ''), { token, body: t.body });
        const b = res.body as { ret?: number; code?: string } | string;
        if (res.status >= 500) problems.push(`${r.method} ${p}: HTTP ${res.status}`);
        if (typeof b !== 'object' || b === null || b.ret === 0 || b.ret === undefined) continue;
        refusals++;
        if (process.env.GUARD_DEBUG) console.log(r.method, p, res.status, JSON.stringify(b).slice(0, 120));
        if (b.code) seen.add(b.code);
        if (!b.code) problems.push(`${r.method} ${p}: refusal without a code: ${JSON.stringify(b)}`);
        else {
          const missing = untranslated(nsOf(r.path), 'err', b.code);
          if (missing.length) problems.push(`${r.method} ${p}: code ${b.code} has no text in ${missing.join(', ')}`);
        }
      }
    }
    expect(refusals).toBeGreaterThan(40);
    // A walk that lost its login would only see loginExpired: every route must have been reached.
    expect(seen.has('loginExpired')).toBe(false);
    expect(problems).toEqual([]);
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

// The only calls the spec lets through without a token.
const PUBLIC = new Set([
  'POST /api/login',
  // A one-time login ticket is the credential itself, counted like a password (routes/loginLink.ts).
  'POST /api/login/ticket',
  'GET /version',
  'GET /2FAStatus',
  'GET /frontendcontroll',
  'GET /api/health',
  // The file manager's share links: their own page, password and throttle (shares/public.ts).
  'GET /s/*',
  'POST /s/*',
  // The knock URL of the security lists: a secret path, its own password throttle (core/safe/knock.ts).
  'GET /knock/:path',
  'POST /knock/:path',
]);

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

describe('every registered route', () => {
  it('has the spec calls of section 7', () => {
    const have = new Set(a.server.admin.registry.routes.map((r) => `${r.method} ${r.path}`));
    for (const call of [
      'GET /api/status',
      'GET /api/execgc',
      'GET /api/logs',
      'GET /api/baseconfigure',
      'PUT /api/baseconfigure',
      'POST /api/login',
      'GET /api/reboot_program',
      'GET /api/modules/list',
      'GET /version',
      'GET /2FAStatus',
      'PUT /api/logout',
      'GET /api/netinterfaces',
      'GET /api/ipregtest',
      'GET /api/twofapassword',
      'GET /api/info',
      'GET /api/restoreconfigureconfirm',
      'PUT /api/lucky/service',
      'PUT /api/update/comfire',
      'GET /api/update/cancel',
      'POST /api/v2l',
      'GET /frontendcontroll',
      'POST /api/update',
      'POST /api/configure',
      'GET /api/configure',
      'POST /api/getfilebase64',
    ]) {
      expect(have, call).toContain(call);
    }
  });

  it('answers ret -1 without a token, and with a token of another install, except the public calls', async () => {
    const foreign = await b.login();
    const routes = a.server.admin.registry.routes;
    expect(routes.length).toBeGreaterThan(25);
    for (const r of routes) {
      const id = `${r.method} ${r.path}`;
      const isPublic = PUBLIC.has(id);
      expect(r.access === 'public', id).toBe(isPublic);
      if (isPublic) continue;
      for (const token of [
        undefined,
        foreign,
        'garbage',
        `Bearer ${foreign}`,
        'lkt_0123456789ab_AAAAAAAAAAAAAAAAAAAAAAAA',
      ]) {
        const res = await a.call(r.method, r.path, { token });
        // A HEAD answer has no body: its status says it.
        if (r.method !== 'HEAD') expect(res.body?.ret, `${id} with ${token ? 'a foreign token' : 'no token'}`).toBe(-1);
        expect(res.status, id).toBe(401);
      }
    }
  });

  it('public calls answer without a token', async () => {
    expect((await a.call('GET', '/version')).body).toMatchObject({ ret: 0, twoFAEnable: false });
    expect((await a.call('GET', '/2FAStatus')).body).toEqual({ ret: 0, twoFAEnable: false });
    expect((await a.call('GET', '/frontendcontroll')).body).toEqual({
      ret: 0,
      FrontendDisableAutoExpandLeftMenu: false,
    });
  });

  it('serves an OpenAPI document listing every route', async () => {
    const doc = (await a.call('GET', '/api/openapi.json', { token: await a.login() })).body;
    expect(doc.openapi).toBe('3.1.0');
    for (const r of a.server.admin.registry.routes)
      expect(doc.paths[r.path]?.[r.method.toLowerCase()], r.path).toBeTruthy();
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.properties.Account).toBeTruthy();
  });

  it('unknown API paths answer 404 with ret 1', async () => {
    const r = await a.call('GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.body.ret).toBe(1);
  });
});

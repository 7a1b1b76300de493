import { apiTokenCreateSchema, twoFADisableSchema, twoFAEnableSchema } from '@lucky/shared';
import { z } from 'zod';
import { makeApiToken } from '../auth/sessions.js';
import { checkTotp, hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri } from '../auth/totp.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { badRequest, conflict, notFound } from '../http/reply.js';
import { checkCurrentPassword } from './attempt.js';

const auditQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  /** Text the address, actor, action or message contains. */
  q: z.string().max(200).default(''),
  result: z.enum(['', 'ok', 'failed']).default(''),
});

const idQuery = z.object({ id: z.string().min(1, 'id cannot be empty').max(64) });

/** Security screen: 2FA, API tokens, sessions. */
export function registerSecurityRoutes(r: RouteRegistry, core: Core): void {
  r.add({
    method: 'GET',
    path: '/api/twofapassword',
    access: 'token',
    summary: 'Start 2FA set-up: a new secret and its otpauth URI (for the QR code)',
    handler: async (_req, _reply, ctx) => {
      if (core.store.get().auth.twoFA.enabled)
        throw conflict('two-factor login is already on; turn it off first', undefined, 'twoFAAlreadyOn');
      const secret = await newTotpSecret();
      core.pendingTwoFA.set(ctx.sessionId ?? 'api', secret);
      return { ret: 0, secret, uri: await totpUri(secret, core.store.get().base.adminAccount) };
    },
  });
  r.add({
    method: 'POST',
    path: '/api/twofa/enable',
    access: 'token',
    summary: 'Confirm 2FA set-up with a code; answers the recovery codes once',
    body: twoFAEnableSchema,
    handler: async (req, _reply, ctx) => {
      const { code } = parseInput(twoFAEnableSchema, req.body);
      const secret = core.pendingTwoFA.get(ctx.sessionId ?? 'api');
      if (!secret) throw badRequest('start the set-up first (scan a new QR code)', 'code', 'twoFANoSetup');
      const step = await checkTotp(secret, code);
      if (step === undefined) throw badRequest('the code does not match; check the phone clock', 'code', 'twoFAWrong');
      const codes = newRecoveryCodes();
      await core.store.update((d) => {
        d.auth.twoFA = { enabled: true, secret, recoveryCodes: codes.map(hashRecoveryCode) };
      });
      // The code that switched 2FA on cannot then sign in (persisted, like every accepted step).
      await core.authState.acceptTotpStep(step);
      core.pendingTwoFA.clear();
      core.log.warn(`two-factor login switched on from ${ctx.clientIp}`);
      return { ret: 0, recoveryCodes: codes };
    },
  });
  r.add({
    method: 'POST',
    path: '/api/twofa/disable',
    access: 'token',
    summary: 'Turn 2FA off (needs the password)',
    body: twoFADisableSchema,
    handler: async (req, _reply, ctx) => {
      const { password } = parseInput(twoFADisableSchema, req.body);
      await checkCurrentPassword(core, ctx.clientIp, password, 'password');
      await core.store.update((d) => {
        d.auth.twoFA = { enabled: false, secret: '', recoveryCodes: [] };
      });
      core.log.warn(`two-factor login switched off from ${ctx.clientIp}`);
      return { ret: 0 };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/apitokens',
    access: 'token',
    summary: 'API tokens (without their secrets)',
    handler: () => ({
      ret: 0,
      list: core.store.get().auth.apiTokens.map((t) => {
        const use = core.authState.tokenUse(t.id);
        return {
          id: t.id,
          name: t.name,
          createdAt: t.createdAt,
          lastUsedAt: use?.at ?? null,
          lastUsedIp: use?.ip ?? null,
        };
      }),
    }),
  });
  r.add({
    method: 'POST',
    path: '/api/apitokens',
    access: 'token',
    summary: 'Create an API token (needs the current password); the token is in this answer only',
    body: apiTokenCreateSchema,
    handler: async (req, _reply, ctx) => {
      const { name, currentPassword } = parseInput(apiTokenCreateSchema, req.body);
      if (core.store.get().auth.apiTokens.length >= 32)
        throw conflict('at most 32 API tokens', undefined, 'tooManyTokens');
      // A token outlives the session that makes it: a stolen session alone must not be able to mint one.
      await checkCurrentPassword(core, ctx.clientIp, currentPassword, 'currentPassword');
      const t = makeApiToken();
      await core.store.update((d) => {
        d.auth.apiTokens.push({ id: t.id, name, hash: t.hash, createdAt: new Date().toISOString() });
      });
      core.log.info(`API token "${name}" created from ${ctx.clientIp}`);
      return { ret: 0, id: t.id, token: t.token };
    },
  });
  r.add({
    method: 'DELETE',
    path: '/api/apitokens',
    access: 'token',
    summary: 'Revoke an API token',
    query: idQuery,
    handler: async (req) => {
      const { id } = parseInput(idQuery, req.query);
      if (!core.store.get().auth.apiTokens.some((t) => t.id === id)) throw notFound(`no API token ${id}`);
      await core.store.update((d) => {
        d.auth.apiTokens = d.auth.apiTokens.filter((t) => t.id !== id);
      });
      await core.authState.forgetTokens(new Set(core.store.get().auth.apiTokens.map((t) => t.id)));
      core.log.info(`API token ${id} revoked`);
      return { ret: 0 };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/audit',
    access: 'token',
    summary: 'Audit log: every state-changing call and login attempt (who, from where, the outcome), newest first',
    query: auditQuery,
    handler: (_req, _reply, input) => {
      const { page, pageSize, q, result } = input.query;
      return { ret: 0, page, pageSize, ...core.audit.page(page, pageSize, { q, result: result || undefined }) };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/sessions',
    access: 'token',
    summary: 'Signed-in sessions',
    handler: (_req, _reply, ctx) => ({
      ret: 0,
      list: core.sessions.list().map((s) => ({
        id: s.id,
        createdAt: s.createdAt,
        expiresAt: s.expiresAt,
        clientIp: s.clientIp,
        current: s.id === ctx.sessionId,
      })),
    }),
  });
  r.add({
    method: 'DELETE',
    path: '/api/sessions',
    access: 'token',
    summary: 'Revoke a session',
    query: idQuery,
    handler: async (req) => {
      const { id } = parseInput(idQuery, req.query);
      if (!(await core.sessions.revoke(id))) throw notFound(`no session ${id}`);
      return { ret: 0 };
    },
  });
}

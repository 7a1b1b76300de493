import { loginSchema } from '@lucky/shared';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { ApiFailure } from '../http/reply.js';
import { Attempt, RET_THROTTLED, throttled } from './attempt.js';

export const RET_TWOFA = 2;

/** Login, logout and the public calls the shell makes before it has a token. */
export function registerSessionRoutes(r: RouteRegistry, core: Core): void {
  r.add({
    method: 'POST',
    path: '/api/login',
    access: 'public',
    summary: 'Sign in; answers a token',
    body: loginSchema,
    handler: async (req, _reply, ctx) => {
      const input = parseInput(loginSchema, req.body);
      // Counted now, before the scrypt check: a flood from one address locks it within maxFailures calls.
      const attempt = Attempt.begin(core, ctx.clientIp);
      try {
        const config = core.store.get();
        const accountOk = input.Account === config.base.adminAccount;
        // The audit log names the admin account only: any other text typed there is not stored.
        if (accountOk) ctx.actor = config.base.adminAccount;
        // Always hash, so a wrong account takes as long as a wrong password.
        const passwordOk = await attempt.checkPassword(input.Password);
        if (!accountOk || !passwordOk) throw attempt.failed('wrong account or password', loginFailed(attempt));
        if (config.auth.twoFA.enabled) {
          const code = input.TwoFACode ?? '';
          if (!code) {
            // The first step of a 2FA login, not a guess: the count is given back.
            attempt.outcome = 'refund';
            throw new ApiFailure(400, RET_TWOFA, 'two-factor code required', 'TwoFACode', { code: 'twoFARequired' });
          }
          // A TOTP or recovery code is a guess too: a wrong one stays counted.
          if (!(await core.secondFactor.accept(code))) {
            const f = attempt.failed(
              'wrong two-factor code',
              new ApiFailure(400, RET_TWOFA, 'wrong two-factor code', 'TwoFACode', {
                code: 'twoFAWrong',
                attemptsLeft: attempt.attemptsLeft,
              }),
            );
            throw f.ret === RET_THROTTLED ? throttled(core.throttle.retryAfterMs(ctx.clientIp), 'TwoFACode') : f;
          }
        }
        attempt.outcome = 'success';
        const { token } = await core.sessions.create(
          config.base.adminAccount,
          ctx.clientIp,
          config.base.tokenLifetimeHours,
        );
        core.log.info(`admin signed in from ${ctx.clientIp}`);
        return { ret: 0, msg: 'login successful', token };
      } finally {
        attempt.end();
      }
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/logout',
    access: 'token',
    summary: 'Sign out: revokes this session',
    handler: async (_req, _reply, ctx) => {
      if (ctx.sessionId) await core.sessions.revoke(ctx.sessionId);
      return { ret: 0, msg: 'logged out' };
    },
  });

  r.add({
    method: 'GET',
    path: '/version',
    access: 'public',
    summary: 'Program version and whether 2FA is on',
    handler: () => ({ ret: 0, version: core.version, twoFAEnable: core.store.get().auth.twoFA.enabled }),
  });
  r.add({
    method: 'GET',
    path: '/2FAStatus',
    access: 'public',
    summary: 'Whether the login asks for a two-factor code',
    handler: () => ({ ret: 0, twoFAEnable: core.store.get().auth.twoFA.enabled }),
  });
  r.add({
    method: 'GET',
    path: '/frontendcontroll',
    access: 'public',
    summary: 'Front-end display settings',
    handler: () => ({
      ret: 0,
      FrontendDisableAutoExpandLeftMenu: core.store.get().base.frontendDisableAutoExpandLeftMenu,
    }),
  });
  r.add({
    method: 'GET',
    path: '/api/health',
    access: 'public',
    summary: 'Liveness probe (restart reconnect, service managers)',
    handler: () => ({ ret: 0 }),
  });

  r.add({
    method: 'GET',
    path: '/api/modules/list',
    access: 'token',
    summary: 'Modules present in this build, and the signed-in administrator',
    handler: () => {
      const c = core.store.get();
      return {
        ret: 0,
        Modules: core.modules.keys(),
        u: {
          account: c.base.adminAccount,
          passwordIsDefault: c.auth.passwordIsDefault,
          twoFAEnable: c.auth.twoFA.enabled,
        },
      };
    },
  });
}

function loginFailed(attempt: Attempt): ApiFailure {
  const left = attempt.attemptsLeft;
  return new ApiFailure(400, 1, `login failed: wrong account or password (${left} attempts left)`, undefined, {
    attemptsLeft: left,
    code: 'loginFailed',
  });
}

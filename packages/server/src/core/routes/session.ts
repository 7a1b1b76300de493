import { loginSchema } from '@lucky/shared';
import { verifyPassword } from '../auth/password.js';
import { checkTotp, hashRecoveryCode } from '../auth/totp.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { ApiFailure, parseWith } from '../http/reply.js';

export const RET_TWOFA = 2;
export const RET_THROTTLED = 3;

/** Login, logout and the public calls the shell makes before it has a token. */
export function registerSessionRoutes(r: RouteRegistry, core: Core): void {
  r.add({
    method: 'POST',
    path: '/api/login',
    access: 'public',
    summary: 'Sign in; answers a token',
    body: loginSchema,
    handler: async (req, _reply, ctx) => {
      const waitMs = core.throttle.retryAfterMs(ctx.clientIp);
      if (waitMs > 0) throw throttled(waitMs);
      const input = parseWith(loginSchema, req.body);
      const config = core.store.get();
      const accountOk = input.Account === config.base.adminAccount;
      // Always hash, so a wrong account takes as long as a wrong password.
      const passwordOk = await verifyPassword(input.Password, config.auth.passwordHash);
      if (!accountOk || !passwordOk) throw failure(core, ctx.clientIp, 'wrong account or password');
      if (config.auth.twoFA.enabled) {
        const code = input.TwoFACode ?? '';
        if (!code)
          throw new ApiFailure(400, RET_TWOFA, 'two-factor code required', 'TwoFACode', { code: 'twoFARequired' });
        if (!(await acceptSecondFactor(core, code))) {
          const f = failure(core, ctx.clientIp, 'wrong two-factor code');
          throw new ApiFailure(f.status, f.status === 403 ? RET_THROTTLED : RET_TWOFA, f.message, 'TwoFACode', {
            ...f.extra,
            code: f.status === 403 ? 'loginThrottled' : 'twoFAWrong',
          });
        }
      }
      core.throttle.succeed(ctx.clientIp);
      const { token } = await core.sessions.create(
        config.base.adminAccount,
        ctx.clientIp,
        config.base.tokenLifetimeHours,
      );
      core.log.info(`admin signed in from ${ctx.clientIp}`);
      return { ret: 0, msg: 'login successful', token };
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

function throttled(waitMs: number): ApiFailure {
  const retryAfter = Math.ceil(waitMs / 1000);
  return new ApiFailure(
    403,
    RET_THROTTLED,
    `too many failed logins from this address; try again in ${retryAfter} s`,
    undefined,
    {
      retryAfter,
      code: 'loginThrottled',
    },
  );
}

function failure(core: Core, ip: string, reason: string): ApiFailure {
  const left = core.throttle.fail(ip);
  core.log.warn(`failed login from ${ip}: ${reason}`);
  if (left === 0) return throttled(core.throttle.retryAfterMs(ip));
  return new ApiFailure(400, 1, `login failed: ${reason} (${left} attempts left)`, undefined, {
    attemptsLeft: left,
    code: 'loginFailed',
  });
}

/** A TOTP code (not replayed) or an unused recovery code, which is then spent. */
async function acceptSecondFactor(core: Core, code: string): Promise<boolean> {
  const twoFA = core.store.get().auth.twoFA;
  const step = await checkTotp(twoFA.secret, code);
  if (step !== undefined) {
    if (step <= core.lastTotpStep) return false;
    core.lastTotpStep = step;
    return true;
  }
  const hash = hashRecoveryCode(code);
  if (!twoFA.recoveryCodes.includes(hash)) return false;
  await core.store.update((d) => {
    d.auth.twoFA.recoveryCodes = d.auth.twoFA.recoveryCodes.filter((h) => h !== hash);
  });
  core.log.warn('a 2FA recovery code was used');
  return true;
}

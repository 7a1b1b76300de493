import net from 'node:net';
import {
  BASE_SETTINGS_MESSAGES,
  type BaseConfigureView,
  baseConfigurePutSchema,
  baseSettingsSchema,
  issueKit,
} from '@lucky/shared';
import { hashPassword } from '../auth/password.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { ApiFailure, badRequest } from '../http/reply.js';
import { checkCurrentPassword } from './attempt.js';

/** The base settings' own codes (timeZoneUnknown) besides the generic ones. */
const BASE_ISSUES = issueKit(BASE_SETTINGS_MESSAGES);

/** The `-p` port of this run, which overrides the saved `adminPort` (tests pass 0: none). */
const portFlag = (core: Core): number | null => (core.opts.port ? core.opts.port : null);

export function baseView(core: Core): BaseConfigureView {
  const c = core.store.get();
  return {
    ...c.base,
    passwordIsDefault: c.auth.passwordIsDefault,
    twoFAEnable: c.auth.twoFA.enabled,
    portOverride: portFlag(core),
  };
}

/** Settings (`/set`): every base setting, the account and the password. */
export function registerSettingsRoutes(r: RouteRegistry, core: Core): void {
  r.add({
    method: 'GET',
    path: '/api/baseconfigure',
    access: 'token',
    summary: 'Base settings (no secrets)',
    handler: () => ({ ret: 0, baseconfigure: baseView(core) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/baseconfigure',
    access: 'token',
    summary: 'Change base settings, account or password',
    body: baseConfigurePutSchema,
    issues: BASE_ISSUES,
    handler: async (req, _reply, ctx) => {
      const input = parseInput(baseConfigurePutSchema, req.body, BASE_ISSUES);
      const current = core.store.get();
      const { newPassword, currentPassword, ...settings } = input;
      const merged = parseInput(baseSettingsSchema, { ...current.base, ...settings }, BASE_ISSUES);
      const accountChanged = merged.adminAccount !== current.base.adminAccount;
      if (newPassword !== undefined || accountChanged) {
        if (!currentPassword)
          throw badRequest(
            'enter the current password to change the account or password',
            'currentPassword',
            'currentPasswordRequired',
          );
        await checkCurrentPassword(core, ctx.clientIp, currentPassword, 'currentPassword');
        if (newPassword !== undefined && newPassword === currentPassword) {
          throw badRequest('the new password must differ from the current one', 'newPassword', 'passwordUnchanged');
        }
      }
      const portChanged = merged.adminPort !== current.base.adminPort;
      // The -p port is ours for this run: saving it as the setting is fine.
      if (portChanged && merged.adminPort !== portFlag(core) && !(await portIsFree(merged.adminPort))) {
        throw new ApiFailure(409, 1, `port ${merged.adminPort} is already in use`, 'adminPort', {
          code: 'portInUse',
          port: merged.adminPort,
        });
      }
      const passwordHash = newPassword !== undefined ? await hashPassword(newPassword) : undefined;
      await core.store.update((d) => {
        d.base = merged;
        if (passwordHash) {
          d.auth.passwordHash = passwordHash;
          d.auth.passwordIsDefault = false;
          // Tokens were made under the old password: whoever knew it may hold one.
          d.auth.apiTokens = [];
        }
      });
      if (passwordHash || accountChanged) {
        // Every other session ends; this one carries on (under the new account name if it changed).
        await core.sessions.revokeAll(accountChanged ? undefined : ctx.sessionId);
        if (passwordHash) await core.authState.forgetTokens(new Set());
        core.log.warn(
          `admin ${passwordHash ? 'password' : 'account'} changed from ${ctx.clientIp}; other sessions${passwordHash ? ' and every API token' : ''} revoked`,
        );
      }
      core.log.info('base settings saved');
      return {
        ret: 0,
        baseconfigure: baseView(core),
        // With a -p flag the saved port applies only once the program runs without it.
        ...(portChanged
          ? { port: merged.adminPort, restartNeeded: true, portOverriddenByFlag: portFlag(core) !== null }
          : {}),
        ...(accountChanged ? { relogin: true } : {}),
      };
    },
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '::', ipv6Only: false }, () => s.close(() => resolve(true)));
  });
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../core/auth/password.js';
import { ConfigStore } from '../core/config/store.js';
import { DEFAULT_PASSWORD, defaultConfig } from '../core/core.js';
import { createLogger } from '../core/logs/logger.js';

/**
 * `lucky reset-login -cd <dir>`: the forgot-password path. Whoever can run
 * commands on the box owns it anyway; this resets the login to 666 / 666,
 * turns 2FA off, revokes every API token and ends every session.
 */
export async function resetLogin(configDir: string): Promise<void> {
  const log = createLogger({ stdout: true });
  const store = new ConfigStore(configDir, defaultConfig, log);
  await store.load();
  const passwordHash = await hashPassword(DEFAULT_PASSWORD);
  await store.update((d) => {
    d.base.adminAccount = '666';
    d.auth.passwordHash = passwordHash;
    d.auth.passwordIsDefault = true;
    d.auth.twoFA = { enabled: false, secret: '', recoveryCodes: [] };
    // Whoever made them knew the old password, which is why it is being reset.
    d.auth.apiTokens = [];
  });
  await fs.rm(path.join(configDir, 'sessions.json'), { force: true });
  log.info(
    `login reset to 666 / 666, 2FA switched off and API tokens revoked in ${configDir}; restart the console (settings take effect on start)`,
  );
}

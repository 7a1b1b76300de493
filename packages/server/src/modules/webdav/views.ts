import {
  maskSecrets,
  type WebdavConfig,
  type WebdavSettings,
  type WebdavStatus,
  type WebdavUser,
  type WebdavUserView,
  webdavReason,
} from '@lucky/shared';
import type { WebdavRuntime } from './runtime.js';

/** The settings as read: the slice without its lists. */
export function settingsView({ mounts: _m, users: _u, ...settings }: WebdavConfig): WebdavSettings {
  return settings;
}

/** A user as read: the password hash masked. */
export const userView = (user: WebdavUser): WebdavUserView => maskSecrets(user, ['password']);

/** The live status, or what it reads as while the module is off. */
export function statusView(config: WebdavConfig, rt: WebdavRuntime | undefined): WebdavStatus {
  if (rt) return rt.view();
  return {
    state: 'stopped',
    ...(config.enabled ? {} : { reason: webdavReason('moduleDisabled') }),
    warnings: [],
    port: config.port,
    scheme: config.tls.enabled ? 'https' : 'http',
    pathPrefix: config.pathPrefix,
    connections: 0,
    requests: 0,
    bytesIn: 0,
    bytesOut: 0,
    requestRate: 0,
    rateIn: 0,
    rateOut: 0,
    refused: 0,
  };
}

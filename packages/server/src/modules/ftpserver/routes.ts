import { type FtpserverConfig, type FtpserverSettingsResponse, ftpserverSettingsSchema } from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';

/** REST calls of the FTP server: /api/ftpserver/… (the full set lands with the engine). */
export function registerFtpserverRoutes(r: Routes, api: ModuleApi<FtpserverConfig>): void {
  r.add({
    method: 'GET',
    path: '/api/ftpserver/settings',
    access: 'token',
    summary: 'FTP server: the settings (mounts and users have their own calls)',
    handler: (): FtpserverSettingsResponse => ({ ret: 0, settings: ftpserverSettingsSchema.parse(api.config()) }),
  });
}

import type { FilebrowserConfig } from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { registerBrowseRoutes } from './routes/browse.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerShareRoutes } from './routes/shares.js';
import { registerUploadRoutes } from './routes/uploads.js';

/** REST calls of the file manager, one file per concern (bodies parsed by the registry). */
export function registerFilebrowserRoutes(r: Routes, api: ModuleApi<FilebrowserConfig>): void {
  registerSettingsRoutes(r, api);
  registerBrowseRoutes(r, api);
  registerUploadRoutes(r, api);
  registerShareRoutes(r, api);
}

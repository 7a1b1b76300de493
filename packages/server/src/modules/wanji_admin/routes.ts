import type { WanjiAdminConfig } from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';

/** REST calls of the wanji_admin module (to come). */
export function registerWanjiAdminRoutes(_r: Routes, _api: ModuleApi<WanjiAdminConfig>): void {}

import type { FilebrowserConfig } from '@lucky/shared';
import type { Routes } from '../../../core/http/registry.js';
import type { ModuleApi } from '../../../core/modules/types.js';

/** Placeholder: filled by its own change. */
export function registerUploadRoutes(_r: Routes, _api: ModuleApi<FilebrowserConfig>): void {}

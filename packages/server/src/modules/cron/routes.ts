import type { CronConfig, CronListResponse } from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';

/** REST calls of the cron module: /api/cron/… (bodies parsed by the registry). */
export function registerCronRoutes(r: Routes, api: ModuleApi<CronConfig>): void {
  r.add({
    method: 'GET',
    path: '/api/cron/tasks',
    access: 'token',
    summary: 'Cron: the module switch and every task with its status',
    handler: (): CronListResponse => {
      const config = api.config();
      return {
        ret: 0,
        enabled: config.enabled,
        historySize: config.historySize,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        list: config.tasks.map((t) => ({ ...t, status: { running: 0, queued: false } })),
      };
    },
  });
}

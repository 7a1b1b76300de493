import { CRON_FREE_TEXT_SECRETS, type CronConfig, cronConfigSchema, cronIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerCronRoutes } from './routes.js';
import { CronRuntime } from './runtime.js';

/** Scheduled tasks: our own scheduler runs each task's actions in order (docs/ARCHITECTURE.md "Scheduled tasks"). */
export const cronModule: ModuleDefinition<CronConfig> = {
  key: 'cron',
  switchable: { items: 'tasks' },
  configSchema: cronConfigSchema,
  issues: cronIssues,
  freeTextSecrets: CRON_FREE_TEXT_SECRETS,
  createRuntime: (ctx) => new CronRuntime(ctx),
  routes: registerCronRoutes,
};

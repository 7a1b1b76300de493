import { type LogPageResponse, logPageQuerySchema } from '@lucky/shared';
import type { Routes } from '../http/registry.js';
import type { RuleLog } from './ruleLog.js';

/**
 * GET and DELETE `path` for a service's own log (one log per module: the WebDAV server, the FTP
 * server, the file manager): a page of it, newest first unless `order=oldest`, and clearing it.
 * `log()` is the running module's log; while the module is off the page is empty.
 */
export function addServiceLogRoutes(
  r: Routes,
  opts: { path: string; service: string; holds: string; log: () => RuleLog | undefined },
): void {
  r.add({
    method: 'GET',
    path: opts.path,
    access: 'token',
    summary: `${opts.service}: a page of its log (${opts.holds}; newest first unless order=oldest)`,
    query: logPageQuerySchema,
    handler: (_req, _reply, input): LogPageResponse => {
      const q = input.query;
      const page = opts.log()?.page(q.page, q.pageSize, q.order) ?? { total: 0, logs: [] };
      return { ret: 0, ...page, page: q.page, pageSize: q.pageSize, order: q.order };
    },
  });

  r.add({
    method: 'DELETE',
    path: opts.path,
    access: 'token',
    summary: `${opts.service}: clear its log`,
    handler: () => {
      opts.log()?.clear();
      return { ret: 0 };
    },
  });
}

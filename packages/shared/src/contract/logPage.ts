// A page of a service's or a rule's log: the one query and answer every module's log routes use
// (the screens' log drawers and tables page through it the same way).
import { z } from 'zod';
import type { LogEntryView } from './coded.js';

/** GET …/logs: which page, how long, newest or oldest first. */
export const logPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  order: z.enum(['newest', 'oldest']).default('newest'),
});
export type LogPageQuery = z.infer<typeof logPageQuerySchema>;

/** GET …/logs */
export interface LogPageResponse {
  ret: 0;
  total: number;
  page: number;
  pageSize: number;
  order: 'newest' | 'oldest';
  logs: LogEntryView[];
}

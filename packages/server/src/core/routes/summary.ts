import os from 'node:os';
import { SUMMARY_CERT_DAYS, type SummaryCert, type SummaryModule, type SummaryResponse } from '@lucky/shared';
import { certStoreFor } from '../certs/store.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import type { OverviewSampler } from '../system/overview.js';

const DAY_MS = 86_400_000;

/**
 * Error lines per module tag in the program log ring within the last 24 h. The ring is the only
 * log the core keeps in memory: the count is what it still holds (its size is the log setting)
 * and starts again at a restart.
 */
export function errorCounts(lines: { log: string }[], now: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const { log } of lines) {
    // `<ISO time> ERROR [tag/sub] text` (logger.ts)
    const m = /^(\S+) ERROR \[([a-z0-9_]+)[\]/]/.exec(log);
    if (!m || now - Date.parse(m[1]) > DAY_MS) continue;
    out.set(m[2], (out.get(m[2]) ?? 0) + 1);
  }
  return out;
}

/**
 * GET /api/summary: what a manager console shows for this one, in one read — the figures
 * `/api/status` samples, the module states of `/api/modules/status`, certificates near expiry.
 */
export function registerSummaryRoute(r: RouteRegistry, core: Core, sampler: OverviewSampler): void {
  r.add({
    method: 'GET',
    path: '/api/summary',
    access: 'token',
    summary:
      'Summary for a manager console: version, uptime, CPU, memory, module states with error counts, certificates expiring within 30 days',
    handler: async (): Promise<SummaryResponse> => {
      const now = Date.now();
      const data = await sampler.sample();
      const errors = errorCounts(core.ring.since(), now);
      const modules: SummaryModule[] = core.modules.status().map((s) => ({
        key: s.key,
        state: s.state,
        ...(s.reason ? { reason: s.reason } : {}),
        errors: errors.get(s.key) ?? 0,
      }));
      const certs: SummaryCert[] = certStoreFor(core.store)
        .loaded()
        .map((c) => {
          const left = Date.parse(c.leaf.notAfter) - now;
          return {
            name: c.record.remark || c.leaf.domains[0] || c.record.key,
            domains: c.leaf.domains,
            notAfter: new Date(c.leaf.notAfter).toISOString(),
            daysLeft: Math.floor(left / DAY_MS),
          };
        })
        .filter((c) => c.daysLeft < SUMMARY_CERT_DAYS)
        .sort((a, b) => a.daysLeft - b.daysLeft);
      return {
        ret: 0,
        version: core.version,
        startedAt: core.startedAt.toISOString(),
        uptimeSeconds: Math.floor((now - core.startedAt.getTime()) / 1000),
        hostname: os.hostname(),
        cpu: { percent: data.cpu.percent, cores: data.cpu.cores },
        memory: { rss: data.process.rss, systemTotal: data.memory.total, systemFree: data.memory.free },
        modules,
        certs,
      };
    },
  });
}

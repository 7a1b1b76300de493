import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { z } from 'zod';
import type { Core } from '../core.js';
import type { DualListener } from '../http/listener.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { badRequest } from '../http/reply.js';
import { listNetInterfaces } from '../net/interfaces.js';
import { ipregTest, NO_MATCH } from '../net/ipSelect.js';
import { createOverviewSampler } from '../system/overview.js';
import { registerSummaryRoute } from './summary.js';

const logsQuery = z.object({ pre: z.string().max(32).optional() });
const ipregQuery = z.object({
  iptype: z.enum(['IPv4', 'IPv6'], { message: 'iptype must be IPv4 or IPv6' }),
  netinterface: z.string().min(1, 'choose a network interface').max(64),
  ipreg: z.string().max(256).default(''),
});
const v2lBody = z.object({
  lastVersion: z.array(z.string().max(64)).max(2).optional(),
  V2L: z.string().max(2048).optional(),
  staticHost: z.string().max(512).optional(),
});

/** Program-level calls: logs, overview, info, GC, restart, interfaces. */
export function registerProgramRoutes(r: RouteRegistry, core: Core, listener: DualListener): void {
  r.add({
    method: 'GET',
    path: '/api/logs',
    access: 'token',
    summary: 'Program log lines newer than `pre`',
    query: logsQuery,
    handler: (req) => {
      const { pre } = parseInput(logsQuery, req.query);
      return { ret: 0, starttime: core.ring.starttime, logs: core.ring.since(pre) };
    },
  });

  const sampler = createOverviewSampler();
  registerSummaryRoute(r, core, sampler);
  r.add({
    method: 'GET',
    path: '/api/status',
    access: 'token',
    summary: 'Overview: CPU, memory, load, uptime, connections, interfaces, modules',
    handler: async () => {
      const data = await sampler.sample();
      return {
        ret: 0,
        data: {
          ...data,
          connections: { ...data.connections, adminHttp: listener.connectionCount },
          modules: core.modules.status(),
          configSource: core.store.source,
        },
      };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/execgc',
    access: 'token',
    summary: 'Run the garbage collector now',
    handler: () => {
      const before = process.memoryUsage();
      runGc();
      const after = process.memoryUsage();
      return {
        ret: 0,
        before: { heapUsed: before.heapUsed, rss: before.rss },
        after: { heapUsed: after.heapUsed, rss: after.rss },
      };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/info',
    access: 'token',
    summary: 'Program facts',
    handler: () => ({
      ret: 0,
      info: {
        AppName: 'Lucky',
        Version: core.version,
        OS: `${os.type()} ${os.release()}`,
        ARCH: os.arch(),
        NodeVersion: process.version,
        StartTime: core.startedAt.toISOString(),
        ConfigDir: core.configDir,
        PID: process.pid,
      },
    }),
  });

  r.add({
    method: 'GET',
    path: '/api/reboot_program',
    audit: true,
    access: 'token',
    summary: 'Restart the server process',
    handler: (_req, reply, ctx) => {
      core.log.warn(`restart requested from ${ctx.clientIp}`);
      // Answer first; restart once the reply has left.
      reply.raw.once('finish', () => setTimeout(() => core.requestRestart(), 100));
      return { ret: 0, msg: 'restarting' };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/netinterfaces',
    access: 'token',
    summary: 'Network interfaces with their IPv4 and IPv6 addresses',
    handler: () => ({ ret: 0, data: listNetInterfaces() }),
  });
  r.add({
    method: 'GET',
    path: '/api/ipregtest',
    access: 'token',
    summary: 'Which address an IP-selection rule picks on an interface',
    query: ipregQuery,
    handler: (req) => {
      const q = parseInput(ipregQuery, req.query);
      const result = ipregTest(q.iptype, q.netinterface, q.ipreg);
      if ('error' in result)
        throw badRequest(result.error, 'ipreg', result.error === NO_MATCH ? 'ipNoMatch' : undefined);
      return { ret: 0, ip: result.ip };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/v2l',
    access: 'token',
    summary: "Record the about page's remote version check; says whether an update exists",
    body: v2lBody,
    handler: (req) => {
      const body = parseInput(v2lBody, req.body);
      const latest = (body.lastVersion ?? [])
        .filter((v) => /^\d+(\.\d+)*$/.test(v))
        .sort(compareVersions)
        .pop();
      const updateAvailable = latest ? compareVersions(latest, core.version) > 0 : false;
      if (updateAvailable) core.log.info(`a newer version is available: ${latest}`);
      return { ret: 0, currentVersion: core.version, latestVersion: latest ?? null, updateAvailable };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/openapi.json',
    access: 'token',
    summary: 'OpenAPI document of every call',
    handler: async () => {
      const { buildOpenApi } = await import('../http/openapi.js');
      return buildOpenApi(r.routes, core.version);
    },
  });
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** global.gc exists only with --expose-gc; otherwise borrow it through V8 flags for this one call. */
function runGc(): void {
  const g = globalThis as { gc?: () => void };
  if (g.gc) {
    g.gc();
    return;
  }
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
}

// REST calls of the Wake-on-LAN module; see docs/API.md, section "Wake-on-LAN". Bodies and
// queries are parsed by the registry. The wake, shutdown, relay and agent calls take an API token
// (`lkt_…`) as well as a login, so a phone shortcut or another console can make them.
import {
  maskSecrets,
  WOL_SECRETS,
  type WolAgentShutdownResponse,
  type WolConfig,
  type WolDeviceView,
  type WolInterfacesResponse,
  type WolIssueCode,
  type WolListResponse,
  type WolScanResponse,
  type WolSettings,
  type WolSettingsResponse,
  type WolShutdownResponse,
  type WolStateResponse,
  type WolWakeResponse,
  type WolWebhookTestResponse,
  wolDeviceInputSchema,
  wolIssues,
  wolRelayBodySchema,
  wolScanBodySchema,
  wolSettingsPatchSchema,
  wolWakeQuerySchema,
  wolWebhookTestBodySchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { ApiFailure, fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { testWebhook } from '../../core/webhook/call.js';
import { maskTemplate, restoreTemplate, restoreWebhook } from '../../core/webhook/secrets.js';
import { sshPath } from './checks.js';
import { WakeError } from './magic.js';
import { ipv4Interface, ipv4Interfaces } from './netinfo.js';
import { RemoteError } from './remote.js';
import { WolRefusal, WolRuntime, wolWebhookVars } from './runtime.js';
import { scanSubnet } from './scan.js';

const deviceSecrets = WOL_SECRETS.filter((p) => p.startsWith('devices.*.')).map((p) => p.slice('devices.*.'.length));

const refuse = (field: string, code: WolIssueCode, params: Record<string, unknown> = {}, status = 400) =>
  fieldFailure({ field, code, params, msg: wolIssues.describe(code, params) }, status);

/** The settings as read: the webhook's secrets masked. */
function settingsView(c: WolConfig): WolSettings {
  const s = { refreshSec: c.refreshSec, checkTimeoutSec: c.checkTimeoutSec, webhook: c.webhook, agent: c.agent };
  return {
    ...maskSecrets(s, ['webhook.proxy.password']),
    webhook: maskTemplate(maskSecrets(c.webhook, ['proxy.password'])),
  };
}

/** What a runtime failure answers: a refusal by its code, a failed send by its reason. */
function failure(err: unknown): unknown {
  if (err instanceof WolRefusal) {
    const status =
      err.code === 'deviceNotFound' ? 404 : err.code === 'agentDisabled' || err.code === 'relayDisabled' ? 403 : 409;
    return refuse('', err.code, err.params, status);
  }
  if (err instanceof WakeError)
    return refuse(err.code === 'interfaceMissing' ? 'interface' : '', err.code, err.params, 502);
  // The relay console failed (relayUnreachable / relayRefused, translated as err_ too).
  if (err instanceof RemoteError)
    return new ApiFailure(502, 1, err.reason.text, undefined, { code: err.reason.code, params: err.reason.params });
  return err;
}

export function registerWolRoutes(r: Routes, api: ModuleApi<WolConfig>): void {
  const serial = serialQueue();
  let scanning = false;
  const live = () => {
    const rt = api.runtime();
    return rt instanceof WolRuntime ? rt : undefined;
  };
  const running = () => {
    const rt = live();
    if (!rt) throw refuse('', 'moduleDisabled', {}, 409);
    return rt;
  };
  const notFound = (key: string) => refuse('key', 'deviceNotFound', { device: key }, 404);
  /** Refuses a key no device has. */
  const known = (config: WolConfig, key: string) => {
    if (!config.devices.some((d) => d.key === key)) throw notFound(key);
  };
  const uniqueName = (config: WolConfig, name: string, key?: string) => {
    if (config.devices.some((d) => d.name.toLowerCase() === name.toLowerCase() && d.key !== key))
      throw refuse('name', 'nameTaken', { name });
  };
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw failure(err);
    }
  };

  r.add({
    method: 'GET',
    path: '/api/wol/state',
    access: 'token',
    summary: 'Wake-on-LAN: every device’s online state and wake progress by key (the screen polls it)',
    handler: (): WolStateResponse => {
      const rt = live();
      const states = Object.fromEntries(
        api.config().devices.map((d) => [d.key, rt?.state(d.key) ?? { online: 'unknown' as const, via: [] }]),
      );
      return { ret: 0, states };
    },
  });

  addKeyedListRoutes(r, api, {
    path: '/api/wol/devices',
    field: 'devices',
    body: wolDeviceInputSchema,
    serial,
    notFound,
    secrets: deviceSecrets,
    check: (prev, body, old) => uniqueName(prev, body.name, old?.key),
    view: (d): WolDeviceView => ({ ...d, state: live()?.state(d.key) ?? { online: 'unknown', via: [] } }),
    answer: 'device',
    list: {
      summary: 'Wake-on-LAN: the module switch, settings and every device with its state (secrets masked)',
      answer: (config, devices): WolListResponse => ({
        ret: 0,
        enabled: config.enabled,
        pingAvailable: live()?.pingAvailable() ?? false,
        sshAvailable: sshPath() !== undefined,
        settings: settingsView(config),
        devices,
        webhookHistory: live()?.webhooks.of('') ?? [],
      }),
    },
    summaries: {
      add: 'Wake-on-LAN: add a device (the server assigns its key; MACs normalised)',
      edit: 'Wake-on-LAN: replace a device (a secret sent back masked is kept)',
      enable: 'Wake-on-LAN: switch a device on or off (off: not checked, not woken by actions)',
      delete: 'Wake-on-LAN: delete a device',
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wol/devices/:key/wake',
    access: 'token',
    summary:
      'Wake-on-LAN: send the device’s magic packets (here or through its relay console); `?wait=<s>` then watches for it (progress in GET /api/wol/state)',
    query: wolWakeQuerySchema,
    handler: (_req, _reply, input): Promise<WolWakeResponse> => {
      const rt = running();
      known(api.config(), input.params.key);
      return guard(() => rt.wake(input.params.key, input.query.wait, input.actor ?? 'api'));
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wol/devices/:key/shutdown',
    access: 'token',
    summary: 'Wake-on-LAN: shut the device down (its SSH command, or the agent of the console on it)',
    handler: (_req, _reply, input): Promise<WolShutdownResponse> => {
      const rt = running();
      known(api.config(), input.params.key);
      return guard(() => rt.shutdown(input.params.key, input.actor ?? 'api'));
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wol/relay',
    access: 'token',
    summary:
      'Wake-on-LAN: send magic packets on this console’s LAN for another console (only with the relay switched on)',
    body: wolRelayBodySchema,
    handler: (_req, _reply, input): Promise<WolWakeResponse> => {
      const rt = running();
      return guard(() => rt.relay(input.body, `${input.actor ?? 'api'}@${input.clientIp}`));
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wol/agent/shutdown',
    access: 'token',
    summary:
      'Wake-on-LAN agent: run this machine’s shutdown command for another console (only with the agent switched on)',
    handler: async (_req, _reply, input): Promise<WolAgentShutdownResponse> => {
      const rt = running();
      const r = await guard(() => rt.agentShutdown(`${input.actor ?? 'api'}@${input.clientIp}`));
      return { ret: 0, ...r };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/wol/interfaces',
    access: 'token',
    summary: 'Wake-on-LAN: the IPv4 interfaces a device or a scan may use, with subnet and broadcast address',
    handler: (): WolInterfacesResponse => ({ ret: 0, list: ipv4Interfaces() }),
  });

  r.add({
    method: 'POST',
    path: '/api/wol/scan',
    access: 'token',
    summary: 'Wake-on-LAN: find hosts on one interface’s own subnet (neighbour table + a bounded TCP probe)',
    body: wolScanBodySchema,
    handler: async (_req, _reply, input): Promise<WolScanResponse> => {
      const rt = running();
      const name = input.body.interface || ipv4Interfaces()[0]?.name || '';
      const i = ipv4Interface(name);
      if (!i) throw refuse('interface', 'scanInterfaceInvalid', { interface: name });
      if (scanning) throw refuse('', 'scanBusy', {}, 409);
      scanning = true;
      try {
        const known = new Set(api.config().devices.flatMap((d) => d.macs));
        const out = await scanSubnet(i, known, input.body.names);
        rt.line(4, 'scanDone', { subnet: out.subnet, count: out.candidates.length, ms: out.ms });
        return { ret: 0, interface: i.name, ...out };
      } finally {
        scanning = false;
      }
    },
  });

  r.add({
    method: 'GET',
    path: '/api/wol/settings',
    access: 'token',
    summary: 'Wake-on-LAN: the settings (refresh, online/offline webhook, agent and relay switches)',
    handler: (): WolSettingsResponse => ({ ret: 0, settings: settingsView(api.config()) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/wol/settings',
    access: 'token',
    summary: 'Wake-on-LAN: change the settings (any subset; the webhook’s masked secrets are kept)',
    body: wolSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WolSettingsResponse> => {
        const prev = api.config();
        const { webhook, ...rest } = input.body;
        const patch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
        const next = { ...prev, ...patch };
        if (webhook) next.webhook = restoreTemplate(webhook, prev.webhook, 'webhook.');
        await api.saveConfig(next);
        return { ret: 0, settings: settingsView(api.config()) };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/wol/webhook/test',
    access: 'token',
    summary: 'Wake-on-LAN: call the online/offline webhook once with a demo device (works while the module is off)',
    body: wolWebhookTestBodySchema,
    handler: (_req, _reply, input): Promise<WolWebhookTestResponse> => {
      const w = restoreWebhook(input.body.webhook, api.config().webhook);
      const vars = wolWebhookVars('demo', 'online', '192.168.1.20', '02:00:00:00:00:01', new Date());
      return testWebhook(w, vars, { http: live()?.httpClients() });
    },
  });

  addServiceLogRoutes(r, {
    path: '/api/wol/logs',
    service: 'Wake-on-LAN',
    holds: 'wakes, online/offline changes, shutdowns, relays, scans, webhook calls',
    log: () => live()?.log,
  });
}

import {
  enabledBodySchema,
  maskSecrets,
  WOL_SECRETS,
  type WolConfig,
  type WolDevice,
  type WolDeviceResponse,
  type WolDeviceView,
  type WolListResponse,
  wolDeviceInputSchema,
  wolIssues,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';

const deviceSecrets = WOL_SECRETS.filter((p) => p.startsWith('devices.*.')).map((p) => p.slice('devices.*.'.length));
const view = (device: WolDevice): WolDeviceView => ({
  ...maskSecrets(device, deviceSecrets),
  state: { online: 'unknown', via: [] },
});

const refuse = (field: string, code: 'nameTaken' | 'deviceNotFound', params: Record<string, unknown>, status = 400) =>
  fieldFailure({ field, code, params, msg: wolIssues.describe(code, params) }, status);

/** REST calls of the wol module: /api/wol/devices … (bodies parsed by the registry). */
export function registerWolRoutes(r: Routes, api: ModuleApi<WolConfig>): void {
  const serial = serialQueue();
  const find = (config: WolConfig, key: string) => {
    const device = config.devices.find((d) => d.key === key);
    if (!device) throw refuse('key', 'deviceNotFound', { device: key }, 404);
    return device;
  };
  const uniqueName = (config: WolConfig, name: string, key?: string) => {
    if (config.devices.some((d) => d.name.toLowerCase() === name.toLowerCase() && d.key !== key))
      throw refuse('name', 'nameTaken', { name });
  };

  r.add({
    method: 'GET',
    path: '/api/wol/devices',
    access: 'token',
    summary: 'Wake-on-LAN: the module switch, settings and every device with its state (secrets masked)',
    handler: (): WolListResponse => {
      const config = api.config();
      return {
        ret: 0,
        enabled: config.enabled,
        pingAvailable: false,
        sshAvailable: false,
        settings: maskSecrets(
          {
            refreshSec: config.refreshSec,
            checkTimeoutSec: config.checkTimeoutSec,
            webhook: config.webhook,
            agent: config.agent,
          },
          ['webhook.proxy.password'],
        ),
        devices: config.devices.map(view),
        webhookHistory: [],
      };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wol/devices',
    access: 'token',
    summary: 'Wake-on-LAN: add a device (the server assigns its key)',
    body: wolDeviceInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WolDeviceResponse> => {
        const prev = api.config();
        uniqueName(prev, input.body.name);
        const device = { ...input.body, key: newKey(prev.devices) };
        await api.saveConfig({ ...prev, devices: [...prev.devices, device] });
        return { ret: 0, device: view(find(api.config(), device.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/wol/devices/:key',
    access: 'token',
    summary: 'Wake-on-LAN: replace a device (a secret sent back masked is kept)',
    body: wolDeviceInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WolDeviceResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        uniqueName(prev, input.body.name, old.key);
        const device = { ...input.body, key: old.key };
        await api.saveConfig({ ...prev, devices: prev.devices.map((d) => (d.key === old.key ? device : d)) });
        return { ret: 0, device: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/wol/devices/:key/enable',
    access: 'token',
    summary: 'Wake-on-LAN: switch a device on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WolDeviceResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const devices = prev.devices.map((d) => (d.key === old.key ? { ...d, enabled: input.body.enabled } : d));
        await api.saveConfig({ ...prev, devices });
        return { ret: 0, device: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/wol/devices/:key',
    access: 'token',
    summary: 'Wake-on-LAN: delete a device',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        await api.saveConfig({ ...prev, devices: prev.devices.filter((d) => d.key !== old.key) });
        return { ret: 0 };
      }),
  });
}

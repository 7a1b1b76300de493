// Answers of the Wake-on-LAN API for the screen's tests.
import {
  type WolDeviceState,
  type WolDeviceView,
  type WolListResponse,
  wolDeviceSchema,
  wolSettingsSchema,
} from '@lucky/shared';

export const DEVICE_KEY = 'Dev0001';

export function deviceView(over: Partial<WolDeviceView> = {}, state: Partial<WolDeviceState> = {}): WolDeviceView {
  const device = wolDeviceSchema.parse({
    key: DEVICE_KEY,
    name: 'NAS',
    macs: ['00:11:22:33:44:55'],
    check: { host: '192.168.1.10', tcpPort: 445 },
  });
  return { ...device, ...over, state: { online: 'offline', via: [], ...state } };
}

export function listReply(devices: WolDeviceView[], enabled = true): WolListResponse {
  return {
    ret: 0,
    enabled,
    pingAvailable: true,
    sshAvailable: true,
    settings: wolSettingsSchema.parse({}),
    devices,
    webhookHistory: [],
  };
}

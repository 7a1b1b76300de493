import os from 'node:os';
import type { StunRule } from '@lucky/shared';

/** Where a rule's sockets leave the box: a local IPv4 address ('0.0.0.0' = any) and, in interface mode, the device. */
export interface Channel {
  address: string;
  device?: string;
}

export type ChannelResult =
  | { ok: true; channel: Channel }
  | { ok: false; code: 'channelInterfaceMissing' | 'channelAddressMissing'; params: Record<string, unknown> };

type ChannelFields = Pick<StunRule, 'channelMode' | 'channelIp' | 'channelInterface'>;

/**
 * The rule's channel, looked up now (an interface's address can change: it is resolved at every
 * (re)open). Interface mode binds to the interface's first IPv4 address, and TCP sockets also to
 * the device itself (SO_BINDTODEVICE), so a second uplink with the same address range is not used.
 */
export function resolveChannel(rule: ChannelFields, interfaces = os.networkInterfaces()): ChannelResult {
  if (rule.channelMode === 'ip') return { ok: true, channel: { address: rule.channelIp || '0.0.0.0' } };
  const name = rule.channelInterface;
  const addrs = interfaces[name];
  if (!addrs) return { ok: false, code: 'channelInterfaceMissing', params: { interface: name } };
  const v4 = addrs.find((a) => a.family === 'IPv4');
  if (!v4) return { ok: false, code: 'channelAddressMissing', params: { interface: name } };
  return { ok: true, channel: { address: v4.address, device: name } };
}

// The address of a network interface picked by the IP-selection rule: the core's interface table
// and selection (what /api/ipregtest answers), with the failures named as this module's reasons.
import { ddnsReason } from '@lucky/shared';
import { listNetInterfaces } from '../../../core/net/interfaces.js';
import { NO_MATCH, selectIp } from '../../../core/net/ipSelect.js';
import { fail, type IpResult, type IpSourceEnv } from './types.js';

export function ipFromInterface(name: string, rule: string, family: 4 | 6, env: IpSourceEnv): IpResult {
  const table = env.interfaces ?? listNetInterfaces();
  const list = family === 4 ? table.IPv4NewInterfaces : table.IPv6NewInterfaces;
  const iface = list.find((i) => i.NetInterfaceName === name.trim());
  if (!iface) return fail('interfaceError', { cause: ddnsReason('interfaceMissing', { name, family }) });
  const r = selectIp(iface.AddressList, rule);
  if ('ip' in r) return { ok: true, ip: r.ip, from: name };
  if (r.error === NO_MATCH) return fail('ipSelectNoMatch', { netInterface: name });
  return fail('interfaceError', { cause: ddnsReason('ipRuleInvalid', { rule, detail: r.error }) });
}

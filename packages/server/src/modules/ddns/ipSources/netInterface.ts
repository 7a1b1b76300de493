// The address of a network interface picked by the IP-selection rule: the same code as
// /api/ipregtest, so what the dialog's test button shows is what the task uses.
import { ipregTest, NO_MATCH } from '../../../core/net/ipSelect.js';
import { fail, type IpResult, type IpSourceEnv } from './types.js';

export function ipFromInterface(name: string, rule: string, family: 4 | 6, env: IpSourceEnv): IpResult {
  const r = ipregTest(family === 4 ? 'IPv4' : 'IPv6', name, rule, env.interfaces ? { interfaces: env.interfaces } : {});
  if ('ip' in r) return { ok: true, ip: r.ip, from: `interface ${name}` };
  return r.error === NO_MATCH ? fail('ipSelectNoMatch', `${name}: ${r.error}`) : fail('interfaceError', r.error);
}

// Getting the task's address from its chosen source; the result is canonical (RFC 5952 for
// IPv6) so comparing it with what a provider answers is a plain string compare.
import type { DdnsTask } from '@lucky/shared';
import { canonicalIp } from '../../../core/net/lan.js';
import { ipFromCommand } from './command.js';
import { ipFromInterface } from './netInterface.js';
import { ipFromOdhcpd } from './odhcpd.js';
import { fail, type IpResult, type IpSourceEnv } from './types.js';
import { ipFromUrls } from './url.js';

export type { IpResult, IpSourceEnv } from './types.js';

export { canonicalIp };

export async function getTaskIp(source: DdnsTask['ipSource'], family: 4 | 6, env: IpSourceEnv): Promise<IpResult> {
  let r: IpResult;
  switch (source.type) {
    case 'url':
      r = await ipFromUrls(source.urls, family, env);
      break;
    case 'netInterface':
      r = ipFromInterface(source.netInterface, source.ipReg, family, env);
      break;
    case 'command':
      r = await ipFromCommand(source.command, family, env);
      break;
    case 'odhcpd':
      r = await ipFromOdhcpd(source, family, env);
      break;
    default:
      return fail('unsupportedIpMethod', { method: String((source as { type: unknown }).type) });
  }
  return r.ok ? { ...r, ip: canonicalIp(r.ip) } : r;
}

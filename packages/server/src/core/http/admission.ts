// What the admin and web service listeners check at accept, from the base settings (read per
// connection, so a saved change holds for the next one).
import type { BaseSettings } from '@lucky/shared';
import type { Core } from '../core.js';
import type { ListenerLimits } from '../net/connGuard.js';
import { createIpMatcher, isLanAddress } from '../net/lan.js';
import type { AdmissionRules } from './listener.js';

export function adminLimitsOf(base: BaseSettings): ListenerLimits {
  return {
    perAddress: base.adminMaxConnsPerAddress,
    total: base.adminMaxConns,
    handshakeMs: base.handshakeTimeout * 1000,
    headerMs: base.headerTimeout * 1000,
  };
}

export function webLimitsOf(base: BaseSettings): ListenerLimits {
  return {
    perAddress: base.webMaxConnsPerAddress,
    total: base.webMaxConns,
    handshakeMs: base.handshakeTimeout * 1000,
    headerMs: base.headerTimeout * 1000,
  };
}

/**
 * With internet access off, only LAN peers reach the admin port: others are reset at accept,
 * before TLS or HTTP. Trusted proxies pass too (the client they name is checked per request), and
 * everyone while a module serves public pages outside the LAN (ModuleDefinition.publicPaths).
 */
export function adminAdmission(core: Core): AdmissionRules {
  let proxies: readonly string[] | undefined;
  let matcher: (ip: string) => boolean = () => false;
  const isProxy = (ip: string) => {
    const list = core.store.get().base.trustedProxies;
    if (proxies !== list) {
      proxies = list;
      matcher = createIpMatcher(list);
    }
    return matcher(ip);
  };
  return {
    reachable(ip) {
      const base = core.store.get().base;
      // A module serving public pages outside the LAN (share links) needs such peers let in; the
      // request gate (app.ts onRequest) then keeps them to those pages.
      return base.allowInternetAccess || isLanAddress(ip) || isProxy(ip) || core.modules.publicOutsideLan();
    },
    isLan: isLanAddress,
    isProxy,
    limits: () => adminLimitsOf(core.store.get().base),
    log: (line) => core.log.warn(line),
  };
}

// What the admin and web service listeners check at accept, from the base settings (read per
// connection, so a saved change holds for the next one).
import type { BaseSettings, BuiltModule } from '@lucky/shared';
import type { Core } from '../core.js';
import type { ListenerLimits } from '../net/connGuard.js';
import { createIpMatcher, isLanAddress, isLoopbackAddress } from '../net/lan.js';
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
 * everyone while a module serves public pages outside the LAN (ModuleDefinition.publicPaths) or
 * an ACME order waits for an HTTP-01 fetch (certs/challenges.ts).
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
      // The knock URL is open outside the LAN too while it is switched on.
      return (
        base.allowInternetAccess ||
        isLanAddress(ip) ||
        isProxy(ip) ||
        core.modules.publicOutsideLan() ||
        core.store.get().safe.knock.enabled ||
        // An ACME order waits for an HTTP-01 fetch the console may answer (its CA is outside the
        // LAN); onRequest answers such peers the board's tokens and nothing else.
        core.challenges.size > 0
      );
    },
    listed(ip) {
      // A proxy (or our own web service on loopback) speaks for others: onRequest decides per
      // request for the client it names.
      if (isProxy(ip) || isLoopbackAddress(ip)) return true;
      const safe = core.safe;
      const d = safe.decide(ip, 'admin');
      if (d.allowed) return true;
      // Refused at the console, but maybe not at another door on this port: the knock URL (the
      // block list and bans still win) or a module's public pages (share links, their own scope).
      // onRequest keeps such a peer to that door.
      if (d.rule !== 'block' && d.rule !== 'ban' && core.store.get().safe.knock.enabled) return true;
      for (const m of core.modules.publicModules()) if (safe.decide(ip, m as BuiltModule).allowed) return true;
      safe.logRefusal(ip, 'admin', d.rule);
      return false;
    },
    watch: (cb) => core.safe.onChange(cb),
    isLan: isLanAddress,
    isProxy,
    limits: () => adminLimitsOf(core.store.get().base),
    log: (line) => core.log.warn(line),
  };
}

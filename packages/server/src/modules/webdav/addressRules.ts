// Who may connect to the WebDAV server, by address: LAN only (on by default: a home NAS does not
// publish its files to the internet unless the owner says so), a block list and an allow list.
// Checked at accept, before a byte is read (GatedGuard), and again per request for the client a
// trusted proxy names (the web service on this box publishing the server under a path).
import type net from 'node:net';
import type { WebdavConfig, WebdavRefusal } from '@lucky/shared';
import { normalizeIp, resolveClientIp } from '../../core/http/clientIp.js';
import { ConnectionGuard, type ListenerLimits, reset } from '../../core/net/connGuard.js';
import { createIpMatcher, isLanAddress } from '../../core/net/lan.js';

type Rules = Pick<WebdavConfig, 'lanOnly' | 'allowList' | 'blockList' | 'trustedProxies'>;

/** The address rules of one config, compiled once. */
export class AddressRules {
  private readonly blocked: (ip: string) => boolean;
  private readonly allowed: (ip: string) => boolean;
  readonly isProxy: (ip: string) => boolean;

  constructor(private readonly rules: Rules) {
    this.blocked = createIpMatcher(rules.blockList);
    this.allowed = createIpMatcher(rules.allowList);
    this.isProxy = createIpMatcher(rules.trustedProxies);
  }

  /**
   * Why `ip` may not connect (undefined: it may). Every condition holds: not on the block list,
   * on the allow list when it has entries, on the LAN when LAN only is on.
   */
  refusal(ip: string): WebdavRefusal | undefined {
    if (this.blocked(ip)) return 'blocked';
    if (this.rules.allowList.length > 0 && !this.allowed(ip)) return 'notAllowed';
    if (this.rules.lanOnly && !isLanAddress(ip)) return 'notLan';
    return undefined;
  }

  /** At accept: a trusted proxy passes (the client it names is checked per request). */
  refusalAtAccept(ip: string): WebdavRefusal | undefined {
    return this.isProxy(ip) ? undefined : this.refusal(ip);
  }

  /** The client of a request: the socket peer, or the one a trusted proxy names in X-Forwarded-For. */
  clientOf(peer: string | undefined, headers: Record<string, string | string[] | undefined>): string {
    if (this.rules.trustedProxies.length === 0) return normalizeIp(peer);
    return resolveClientIp(peer, headers, this.rules.trustedProxies);
  }
}

/**
 * The module's connection caps with the address rules in front: a refused address is reset at
 * accept like a capped one (no TLS or HTTP byte read), and a trusted proxy counts as one that
 * speaks for many clients (only the total cap applies to it).
 */
export class GatedGuard extends ConnectionGuard {
  constructor(
    limits: () => ListenerLimits,
    write: (line: string) => void,
    private readonly rules: () => AddressRules,
    private readonly onRefused: (ip: string, why: WebdavRefusal) => void,
  ) {
    super('WebDAV', limits, isLanAddress, write);
  }

  override admit(socket: net.Socket, ip = socket.remoteAddress ?? '', proxy = false): boolean {
    const rules = this.rules();
    const why = rules.refusalAtAccept(ip);
    if (why) {
      this.refused++;
      this.onRefused(normalizeIp(ip), why);
      reset(socket);
      return false;
    }
    return super.admit(socket, ip, proxy || rules.isProxy(ip));
  }
}

// The router's NAT as an nftables table, one per behaviour (RFC 4787 terms in brackets):
//
//   portRestrictedCone  masquerade. Linux keeps the source port when free and reuses a source's
//                       mapping for new destinations [endpoint-independent mapping]; conntrack
//                       lets in only what answers a flow [address- and port-dependent filtering].
//   symmetric           masquerade fully-random (iptables' --random-fully): a new port per destination [address- and
//                       port-dependent mapping].
//   fullCone            masquerade, plus a map learned on the way out: public port → inside
//                       endpoint; unsolicited inbound to that port is sent there [endpoint-
//                       independent filtering]. UDP and TCP.
//   restrictedCone      the same map keyed by (remote address, public port): only addresses the
//                       inside has sent to get in, from any of their ports [address-dependent
//                       filtering].
//
// The maps are filled after source NAT (a filter chain behind srcnat), from conntrack's reply
// tuple, so they hold the public port actually given, also when masquerade had to change it.
export type NatMode = 'fullCone' | 'restrictedCone' | 'portRestrictedCone' | 'symmetric';

export const NAT_MODES: readonly NatMode[] = ['fullCone', 'restrictedCone', 'portRestrictedCone', 'symmetric'];

/** The nftables table the lab owns in the router namespace. */
export const NAT_TABLE = 'lucky_lab';

/** How long a cone mapping outlives the last packet out (as UDP conntrack's assured time-out). */
const CONE_TIMEOUT = '120s';

export interface NatRuleOptions {
  /** The router's WAN interface. */
  wan: string;
  /** Masquerade into this port range (shiftPorts), else keep ports where possible. */
  portRange?: [number, number];
}

/** The whole table for `mode`, as one `nft -f` text that replaces the previous one atomically. */
export function natRuleset(mode: NatMode, o: NatRuleOptions): string {
  const wan = JSON.stringify(o.wan);
  const random = mode === 'symmetric' ? ' fully-random' : '';
  const range = o.portRange ? ` to :${o.portRange[0]}-${o.portRange[1]}` : '';
  const masquerade =
    range || random
      ? [`oifname ${wan} meta l4proto { tcp, udp } masquerade${range}${random}`, `oifname ${wan} masquerade${random}`]
      : [`oifname ${wan} masquerade`];
  const cone = mode === 'fullCone' || mode === 'restrictedCone';
  // fullCone: public port → inside; restrictedCone: remote address . public port → inside.
  const keyType = mode === 'restrictedCone' ? 'ipv4_addr . inet_service' : 'inet_service';
  const lines: string[] = [`table ip ${NAT_TABLE} {`];
  if (cone) {
    for (const p of ['udp', 'tcp']) {
      lines.push(
        `  map cone_${p} { type ${keyType} : ipv4_addr . inet_service; flags dynamic,timeout; timeout ${CONE_TIMEOUT}; }`,
      );
    }
  }
  lines.push('  chain pre {', '    type nat hook prerouting priority dstnat; policy accept;');
  if (cone) {
    for (const p of ['udp', 'tcp']) {
      const key = mode === 'restrictedCone' ? `ip saddr . ${p} dport` : `${p} dport`;
      lines.push(`    iifname ${wan} meta l4proto ${p} dnat ip to ${key} map @cone_${p}`);
    }
  }
  lines.push('  }', '  chain post {', '    type nat hook postrouting priority srcnat; policy accept;');
  lines.push(...masquerade.map((l) => `    ${l}`), '  }');
  if (cone) {
    lines.push('  chain learn {', '    type filter hook postrouting priority srcnat + 10; policy accept;');
    for (const p of ['udp', 'tcp']) {
      const key = mode === 'restrictedCone' ? 'ip daddr . ct reply proto-dst' : 'ct reply proto-dst';
      lines.push(
        `    oifname ${wan} ct direction original meta l4proto ${p} update @cone_${p} { ${key} : ct original ip saddr . ct original proto-src }`,
      );
    }
    lines.push('  }');
  }
  lines.push('}');
  // Creating the table first makes the delete valid when it does not exist yet; the three
  // statements are one transaction, so no packet sees the router without NAT.
  return `table ip ${NAT_TABLE} {}\ndelete table ip ${NAT_TABLE}\n${lines.join('\n')}\n`;
}

/** Empties the cone maps (a NAT that lost its state forgets them too); nothing for other modes. */
export function flushConeMaps(mode: NatMode): string {
  if (mode !== 'fullCone' && mode !== 'restrictedCone') return '';
  return `flush map ip ${NAT_TABLE} cone_udp\nflush map ip ${NAT_TABLE} cone_tcp\n`;
}

import type { Coded } from '@lucky/shared';

/** A port a listener will hold: protocol, port and address ('' or a wildcard = every address). */
export interface PortClaim {
  proto: 'tcp' | 'udp';
  port: number;
  host?: string;
  /** Who holds it, as the refusal names it: the module key and the rule's name. */
  owner: { module: string; item?: string };
}

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]', '*']);
const overlaps = (a: PortClaim, b: PortClaim) =>
  a.proto === b.proto &&
  a.port === b.port &&
  a.port !== 0 &&
  (WILDCARDS.has(a.host ?? '') || WILDCARDS.has(b.host ?? '') || a.host === b.host);

/**
 * Every listener of every module and the admin port, by owner. A module's claims are replaced
 * whole when its config is applied; a save whose claims overlap another owner's is refused
 * before anything is applied or saved, naming that owner. Clashes inside one module are the
 * module's own check (it names its own rule and field better).
 */
export class PortRegistry {
  private byOwner = new Map<string, PortClaim[]>();

  /** Replace what `owner` (a module key, or `admin`) holds. */
  set(owner: string, claims: readonly PortClaim[]): void {
    this.byOwner.set(owner, [...claims]);
  }

  /** The first claim of `claims` that another owner holds, with that holder. */
  clash(owner: string, claims: readonly PortClaim[]): { claim: PortClaim; holder: PortClaim } | undefined {
    for (const [other, held] of this.byOwner) {
      if (other === owner) continue;
      for (const claim of claims) {
        const holder = held.find((h) => overlaps(claim, h));
        if (holder) return { claim, holder };
      }
    }
    return undefined;
  }

  /** Every claim (the guard test compares them with the sockets the process holds). */
  list(): PortClaim[] {
    return [...this.byOwner.values()].flat();
  }
}

/** The refusal of a clash as code + params (the UI names the owner in its own language). */
export function clashReason(c: { claim: PortClaim; holder: PortClaim }): Coded & { text: string } {
  const owner = c.holder.owner.item ? `${c.holder.owner.module} "${c.holder.owner.item}"` : c.holder.owner.module;
  return {
    code: 'portTaken',
    params: {
      proto: c.claim.proto,
      port: c.claim.port,
      module: c.holder.owner.module,
      item: c.holder.owner.item ?? '',
    },
    text: `${c.claim.proto.toUpperCase()} port ${c.claim.port} is already used by ${owner}`,
  };
}

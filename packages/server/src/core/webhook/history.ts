// The recent calls of each owner's webhook (a DDNS task, a STUN rule), newest first, at most
// WEBHOOK_LIMITS.history of them. Kept in memory only, while the module runs: after a restart
// or a switch off and on, a history starts empty.
import { WEBHOOK_LIMITS, type WebhookCallView } from '@lucky/shared';
import type { WebhookOutcome } from './call.js';

/** A call as a history keeps it. */
export function callView(outcome: WebhookOutcome, at: Date): WebhookCallView {
  return {
    time: at.toISOString(),
    ok: outcome.ok,
    attempts: outcome.attempts,
    ...(outcome.status !== undefined ? { status: outcome.status } : {}),
    reason: outcome.reason,
  };
}

/** `E`: the module's entry (DDNS adds which webhook was called). */
export class WebhookHistory<E extends WebhookCallView = WebhookCallView> {
  private readonly byOwner = new Map<string, E[]>();

  constructor(private readonly max: number = WEBHOOK_LIMITS.history.max) {}

  add(owner: string, entry: E): void {
    const list = this.byOwner.get(owner) ?? [];
    list.unshift(entry);
    list.length = Math.min(list.length, this.max);
    this.byOwner.set(owner, list);
  }

  /** Newest first (a copy). */
  of(owner: string): E[] {
    return [...(this.byOwner.get(owner) ?? [])];
  }

  /** Only these owners' histories stay (a removed task's goes with it). */
  keep(owners: Iterable<string>): void {
    const live = new Set(owners);
    for (const k of this.byOwner.keys()) if (!live.has(k)) this.byOwner.delete(k);
  }
}

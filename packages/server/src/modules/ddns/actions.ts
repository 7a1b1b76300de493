// What DDNS offers other modules (core/modules/actions.ts): `syncNow` syncs a task with its
// provider now — with the address another module just learned (STUN's public address), when it
// gives one of the task's family, instead of the task's own IP source.
import { type DdnsConfig, type DdnsSyncNowInput, ddnsSyncNowInputSchema } from '@lucky/shared';
import { defineAction } from '../../core/modules/actions.js';
import { DdnsRuntime } from './runtime.js';

export const ddnsActions = {
  syncNow: defineAction<DdnsConfig, DdnsSyncNowInput>({
    input: ddnsSyncNowInputSchema,
    targets: (config) => config.tasks.map((t) => ({ key: t.key, name: t.name || t.domains[0] || t.key })),
    run(runtime, input, ctx) {
      if (!(runtime instanceof DdnsRuntime)) throw new Error('not the DDNS runtime');
      return runtime.syncNow(input, ctx.caller);
    },
  }),
};

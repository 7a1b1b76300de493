// What Wake-on-LAN offers other modules (core/modules/actions.ts): `wake` sends a device's magic
// packets now (a scheduled task's "wake the NAS before the backup"); the device by key or name.
import { type WolConfig, type WolWakeInput, wolIssues, wolWakeInputSchema } from '@lucky/shared';
import { defineAction } from '../../core/modules/actions.js';
import { failureReason, WolRefusal, WolRuntime } from './runtime.js';

export const wolActions = {
  wake: defineAction<WolConfig, WolWakeInput>({
    input: wolWakeInputSchema,
    targets: (config) => config.devices.map((d) => ({ key: d.key, name: d.name })),
    async run(runtime, input, ctx) {
      if (!(runtime instanceof WolRuntime)) throw new Error('not the Wake-on-LAN runtime');
      try {
        const d = runtime.find(input.device);
        if (!d.enabled) throw new WolRefusal('deviceDisabled', { device: d.name });
        const r = await runtime.wake(d.key, 0, ctx.caller);
        return { ok: true, detail: `${r.sent} packets sent to ${r.target}` };
      } catch (err) {
        if (err instanceof WolRefusal)
          return {
            ok: false,
            reason: { code: err.code, params: err.params },
            detail: wolIssues.describe(err.code, err.params),
          };
        const reason = failureReason(err);
        return { ok: false, reason: { code: reason.code, params: reason.params }, detail: reason.text };
      }
    },
  }),
};

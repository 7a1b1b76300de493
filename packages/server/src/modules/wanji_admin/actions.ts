// What wanji admin offers other modules (core/modules/actions.ts): `refreshNow` reads one console's
// summary at once (a scheduled task's "check the NAS console after its nightly restart").
import {
  type WanjiAdminConfig,
  type WanjiRefreshInput,
  wanjiAdminIssues,
  wanjiRefreshInputSchema,
} from '@lucky/shared';
import { defineAction } from '../../core/modules/actions.js';
import { WanjiAdminRuntime } from './runtime.js';

export const wanjiAdminActions = {
  refreshNow: defineAction<WanjiAdminConfig, WanjiRefreshInput>({
    input: wanjiRefreshInputSchema,
    targets: (config) => config.consoles.map((c) => ({ key: c.key, name: c.name })),
    async run(runtime, input, ctx) {
      if (!(runtime instanceof WanjiAdminRuntime)) throw new Error('not the wanji admin runtime');
      const c = ctx.config.consoles.find((x) => x.key === input.key || x.name === input.key);
      if (!c) {
        const params = { key: input.key };
        return {
          ok: false,
          reason: { code: 'consoleNotFound', params },
          detail: wanjiAdminIssues.describe('consoleNotFound', params),
        };
      }
      if (!c.enabled) {
        const params = { name: c.name };
        return {
          ok: false,
          reason: { code: 'consoleDisabled', params },
          detail: wanjiAdminIssues.describe('consoleDisabled', params),
        };
      }
      await runtime.refreshNow(c.key);
      const s = runtime.stateOf(c.key);
      if (s.reachable) return { ok: true, detail: `${c.name} answers (version ${s.summary?.version ?? '?'})` };
      return {
        ok: false,
        reason: { code: s.reason?.code ?? 'networkFailed', params: s.reason?.params ?? {} },
        detail: s.reason?.text ?? '',
      };
    },
  }),
};

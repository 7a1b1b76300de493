// The core's side of actions, with a module whose action throws and one that is not running:
// every way an invocation can go wrong is a coded refusal, never an exception for the caller.
import { issueKit } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ActionHost, defineAction, moduleActions } from './actions.js';
import type { ModuleDefinition, ModuleRuntime } from './types.js';

const runtime: ModuleRuntime<unknown> = { start: async () => {}, stop: async () => {}, status: () => ({}) };
const seen: unknown[] = [];
const def: ModuleDefinition = {
  key: 'wol',
  configSchema: z.object({ enabled: z.boolean().default(true) }),
  issues: issueKit({ macInvalid: 'not a MAC address' }),
  createRuntime: () => runtime,
  actions: {
    wake: defineAction({
      input: z.object({ mac: z.string().regex(/^[0-9a-f:]{17}$/, 'macInvalid') }),
      targets: () => [{ key: 'nas', name: 'NAS' }],
      run: async (_rt, input, ctx) => {
        seen.push({ input, caller: ctx.caller });
        if (input.mac === 'ff:ff:ff:ff:ff:ff') throw new Error('no broadcast');
        return { ok: true };
      },
    }),
  },
};

function host(running: boolean): ActionHost {
  return {
    keys: () => ['wol', 'wanji_admin'],
    definition: (key) => (key === 'wol' ? def : { ...def, key, actions: undefined }),
    configOf: <C>() => ({ enabled: running }) as C,
    runningRuntime: () => (running ? runtime : undefined),
    saveConfig: async () => {
      throw new Error('not saved here');
    },
  };
}

describe('module actions', () => {
  it('runs a parsed input for its caller; a throw, bad input and a stopped module are refusals', async () => {
    const a = moduleActions(host(true), 'cron');
    expect(await a.invoke('wol', 'wake', { mac: '00:11:22:33:44:55' })).toEqual({ ok: true });
    expect(seen).toEqual([{ input: { mac: '00:11:22:33:44:55' }, caller: 'cron' }]);
    expect(await a.invoke('wol', 'wake', { mac: 'ff:ff:ff:ff:ff:ff' })).toEqual({
      ok: false,
      reason: { code: 'actionFailed', params: { module: 'wol', action: 'wake', detail: 'no broadcast' } },
      detail: 'wol wake failed: no broadcast',
    });
    expect(await a.invoke('wol', 'wake', { mac: 'x' })).toEqual({
      ok: false,
      reason: {
        code: 'actionInputInvalid',
        params: { module: 'wol', action: 'wake', field: 'mac', detail: 'not a MAC address' },
      },
      detail: 'the input of wol wake is invalid: mac: not a MAC address',
    });
    // An inherited name is no action.
    expect((await a.invoke('wol', 'toString', {})).reason).toEqual({
      code: 'actionNotFound',
      params: { module: 'wol', action: 'toString' },
    });
    expect((await a.invoke('wanji_admin', 'wake', {})).reason?.code).toBe('actionNotFound');
    expect(a.list()).toEqual([{ module: 'wol', name: 'wake', enabled: true, targets: [{ key: 'nas', name: 'NAS' }] }]);

    const off = moduleActions(host(false), 'cron');
    expect((await off.invoke('wol', 'wake', { mac: '00:11:22:33:44:55' })).reason).toEqual({
      code: 'moduleOff',
      params: { module: 'wol' },
    });
    expect(seen).toHaveLength(2);
    expect(off.list()[0].enabled).toBe(false);
  });

  it('switches an item of a switchable module through the supervisor, on or off, by key or name', async () => {
    let config = {
      enabled: false,
      rules: [
        { key: 'r1', name: 'evening', enabled: true },
        { key: 'r2', name: 'night', enabled: false },
      ],
    };
    const saved: unknown[] = [];
    const switchable: ModuleDefinition = {
      ...def,
      key: 'portforward',
      actions: undefined,
      switchable: { items: 'rules' },
    };
    const h: ActionHost = {
      keys: () => ['portforward'],
      definition: () => switchable,
      configOf: <C>() => config as C,
      runningRuntime: () => undefined,
      saveConfig: async (_key, next) => {
        if ((next as typeof config).rules.some((r) => r.name === 'night' && r.enabled)) throw new Error('port taken');
        saved.push(next);
        config = next as typeof config;
      },
    };
    const a = moduleActions(h, 'cron');
    // Listed while the module is off (it only changes the saved slice), with every item as a target.
    expect(a.list().map((v) => [v.name, v.enabled, v.targets.length])).toEqual([
      ['enableItem', true, 2],
      ['disableItem', true, 2],
    ]);
    expect(await a.invoke('portforward', 'disableItem', { key: 'evening' })).toMatchObject({ ok: true });
    expect(config.rules[0].enabled).toBe(false);
    expect(await a.invoke('portforward', 'disableItem', { key: 'r1' })).toMatchObject({ ok: true });
    expect(saved).toHaveLength(1);
    expect((await a.invoke('portforward', 'enableItem', { key: 'nope' })).reason).toEqual({
      code: 'itemNotFound',
      params: { module: 'portforward', item: 'nope' },
    });
    expect((await a.invoke('portforward', 'enableItem', {})).reason?.code).toBe('actionInputInvalid');
    // A save the supervisor refuses is a refusal, and the slice stays as it was.
    expect((await a.invoke('portforward', 'enableItem', { key: 'r2' })).reason).toMatchObject({
      code: 'actionFailed',
      params: { detail: 'port taken' },
    });
    expect(config.rules[1].enabled).toBe(false);
  });
});

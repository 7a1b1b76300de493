import { SECRET_MASK } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { waitFor } from '../../../test/wait.js';
import { parseInput, type RouteDef, type Routes } from '../http/registry.js';
import { ApiFailure, fieldFailure } from '../http/reply.js';
import { serialQueue } from './keyed.js';
import { addKeyedListRoutes } from './keyedListRoutes.js';
import type { ModuleApi } from './types.js';

// The keyed-list route set on its own: a list of "gadgets" with a secret token, driven through
// the handlers it registers (bodies parsed as the registry parses them) against a config held in
// memory whose save can be held open, to see what each route reads, checks and saves.

const gadgetSchema = z.object({
  key: z.string(),
  name: z.string().min(1),
  enabled: z.boolean(),
  token: z.string(),
  port: z.number().int(),
});
const configSchema = z.object({ enabled: z.boolean(), gadgets: z.array(gadgetSchema) });
type Config = z.infer<typeof configSchema>;
const inputSchema = gadgetSchema.omit({ key: true });

const refuse = (field: string, code: string, status: number, params: Record<string, unknown> = {}) =>
  fieldFailure({ field, code, params, msg: code }, status);

interface Call {
  status: number;
  body: Record<string, unknown>;
}

function setup(initial: Config['gadgets'] = []) {
  let config: Config = { enabled: true, gadgets: initial };
  const saves: Config[] = [];
  const checked: { next: Config; key: string }[] = [];
  const order: string[] = [];
  /** While set, a save waits for it (a slow apply). */
  let hold: Promise<void> | undefined;
  const api = {
    config: () => config,
    saveConfig: async (next: Config) => {
      order.push(`save ${next.gadgets.length}`);
      await hold;
      config = configSchema.parse(next);
      saves.push(config);
    },
  } as unknown as ModuleApi<Config>;
  const defs = new Map<string, RouteDef>();
  const r: Routes = { add: (def) => defs.set(`${def.method} ${def.path}`, def as RouteDef) };
  addKeyedListRoutes(r, api, {
    path: '/api/demo/gadgets',
    field: 'gadgets',
    body: inputSchema,
    serial: serialQueue(),
    notFound: (key) => refuse('key', 'gadgetNotFound', 404, { key }),
    secrets: ['token'],
    check: (prev, body, old) => {
      order.push(`check ${body.name}`);
      if (prev.gadgets.some((g) => g.name === body.name && g.key !== old?.key))
        throw refuse('name', 'nameTaken', 400, { name: body.name });
    },
    checkChange: (next, _prev, key) => {
      checked.push({ next, key });
      const mine = next.gadgets.find((g) => g.key === key);
      if (mine?.enabled && next.gadgets.some((g) => g.key !== key && g.enabled && g.port === mine.port))
        throw refuse('port', 'portTaken', 409, { port: mine.port });
    },
    inUse: (_config, item) => {
      if (item.name === 'busy') throw refuse('key', 'gadgetInUse', 409, { name: item.name });
    },
    view: (item) => ({ ...item, state: item.enabled ? 'on' : 'off' }),
    answer: 'gadget',
    addAnswersKey: true,
    list: { summary: 'list', answer: (c, list) => ({ ret: 0, enabled: c.enabled, list }) },
    summaries: { add: 'add', one: 'one', edit: 'edit', enable: 'enable', delete: 'delete' },
  });

  const call = async (method: string, path: string, body?: unknown): Promise<Call> => {
    const [, key] = path.match(/^\/api\/demo\/gadgets\/([^/]*)/) ?? [];
    const pattern = key === undefined ? path : path.replace(`/gadgets/${key}`, '/gadgets/:key');
    const def = defs.get(`${method} ${pattern}`);
    if (!def) throw new Error(`no route ${method} ${pattern}`);
    const params: Record<string, string> = key === undefined ? {} : { key: decodeURIComponent(key) };
    try {
      const input = {
        clientIp: '127.0.0.1',
        body: def.body ? parseInput(def.body, body) : body,
        query: {},
        params,
      };
      const answer = await def.handler({} as never, {} as never, input);
      return { status: 200, body: answer as Record<string, unknown> };
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      return { status: err.status, body: { field: err.field, ...err.extra } };
    }
  };
  return {
    call,
    saves,
    checked,
    order,
    config: () => config,
    holdSaves: () => {
      let release = () => {};
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

const gadget = (name: string, port: number, token = 'tok-secret', enabled = true) => ({ name, enabled, token, port });
const stored = (key: string, name: string, port: number, token = 'tok-secret') => ({
  key,
  name,
  enabled: true,
  token,
  port,
});

describe('keyed-list routes', () => {
  it('adds an item under a new key and answers it with its secret masked', async () => {
    const t = setup();
    const res = await t.call('POST', '/api/demo/gadgets', gadget('lamp', 80));
    expect(res.status).toBe(200);
    const key = res.body.key as string;
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(res.body).toEqual({
      ret: 0,
      key,
      gadget: { key, name: 'lamp', enabled: true, token: SECRET_MASK, port: 80, state: 'on' },
    });
    expect(t.config().gadgets).toEqual([stored(key, 'lamp', 80)]);
    const list = await t.call('GET', '/api/demo/gadgets');
    expect(list.body).toEqual({
      ret: 0,
      enabled: true,
      list: [{ ...stored(key, 'lamp', 80), token: SECRET_MASK, state: 'on' }],
    });
  });

  it('answers an unknown or malformed key with the module’s refusal and saves nothing', async () => {
    const t = setup([stored('AAAAAAAAAAAAAAAA', 'lamp', 80)]);
    for (const key of ['BBBBBBBBBBBBBBBB', '..%2Fx', 'aaaaaaaaaaaaaaaa', '%20AAAAAAAAAAAAAAAA']) {
      const path = `/api/demo/gadgets/${key}`;
      const wanted = {
        status: 404,
        body: { field: 'key', code: 'gadgetNotFound', params: { key: decodeURIComponent(key) } },
      };
      expect(await t.call('GET', path)).toEqual(wanted);
      expect(await t.call('PUT', path, gadget('lamp2', 81))).toEqual(wanted);
      expect(await t.call('PUT', `${path}/enable`, { enabled: false })).toEqual(wanted);
      expect(await t.call('DELETE', path)).toEqual(wanted);
    }
    expect(t.saves).toEqual([]);
  });

  it('keeps a stored secret sent back masked, before the checks see the item', async () => {
    const t = setup([stored('AAAAAAAAAAAAAAAA', 'lamp', 80)]);
    const res = await t.call('PUT', '/api/demo/gadgets/AAAAAAAAAAAAAAAA', gadget('lamp', 8080, SECRET_MASK));
    expect(res.body.gadget).toMatchObject({ token: SECRET_MASK, port: 8080 });
    expect(t.config().gadgets).toEqual([stored('AAAAAAAAAAAAAAAA', 'lamp', 8080)]);
    expect(t.checked.at(-1)?.next.gadgets[0].token).toBe('tok-secret');
    // Any other value replaces it; on an add the mask stands for nothing.
    await t.call('PUT', '/api/demo/gadgets/AAAAAAAAAAAAAAAA', gadget('lamp', 8080, 'tok-new'));
    expect(t.config().gadgets[0].token).toBe('tok-new');
    const added = await t.call('POST', '/api/demo/gadgets', gadget('fan', 90, SECRET_MASK));
    expect(t.config().gadgets.find((g) => g.key === added.body.key)?.token).toBe('');
  });

  it('refuses with the module’s checks and leaves the config as it was', async () => {
    const t = setup([stored('AAAAAAAAAAAAAAAA', 'lamp', 80), stored('BBBBBBBBBBBBBBBB', 'fan', 90)]);
    const before = t.config();
    expect(await t.call('POST', '/api/demo/gadgets', gadget('lamp', 100))).toEqual({
      status: 400,
      body: { field: 'name', code: 'nameTaken', params: { name: 'lamp' } },
    });
    expect(await t.call('PUT', '/api/demo/gadgets/BBBBBBBBBBBBBBBB', gadget('fan', 80))).toEqual({
      status: 409,
      body: { field: 'port', code: 'portTaken', params: { port: 80 } },
    });
    // The body's own schema, as the registry parses it.
    expect((await t.call('POST', '/api/demo/gadgets', { ...gadget('x', 1), name: '' })).body).toMatchObject({
      field: 'name',
      code: 'tooSmall',
    });
    expect((await t.call('PUT', '/api/demo/gadgets/AAAAAAAAAAAAAAAA/enable', { enabled: 'yes' })).status).toBe(400);
    expect(t.saves).toEqual([]);
    expect(t.config()).toBe(before);
  });

  it('checks across the list on a switch on, never on a switch off or a delete', async () => {
    const t = setup([
      stored('AAAAAAAAAAAAAAAA', 'lamp', 80),
      { ...stored('BBBBBBBBBBBBBBBB', 'fan', 80), enabled: false },
    ]);
    expect((await t.call('PUT', '/api/demo/gadgets/BBBBBBBBBBBBBBBB/enable', { enabled: true })).status).toBe(409);
    expect(t.config().gadgets[1].enabled).toBe(false);
    const off = await t.call('PUT', '/api/demo/gadgets/AAAAAAAAAAAAAAAA/enable', { enabled: false });
    expect(off.body).toEqual({
      ret: 0,
      gadget: { ...stored('AAAAAAAAAAAAAAAA', 'lamp', 80), enabled: false, token: SECRET_MASK, state: 'off' },
    });
    const checks = t.checked.length;
    expect(await t.call('DELETE', '/api/demo/gadgets/AAAAAAAAAAAAAAAA')).toEqual({ status: 200, body: { ret: 0 } });
    expect(t.checked.length).toBe(checks);
    expect((await t.call('PUT', '/api/demo/gadgets/BBBBBBBBBBBBBBBB/enable', { enabled: true })).body).toMatchObject({
      gadget: { enabled: true, state: 'on' },
    });
    expect(t.config().gadgets.map((g) => [g.key, g.enabled])).toEqual([['BBBBBBBBBBBBBBBB', true]]);
  });

  it('refuses to delete an item in use, naming it, and keeps it', async () => {
    const t = setup([stored('AAAAAAAAAAAAAAAA', 'busy', 80)]);
    expect(await t.call('DELETE', '/api/demo/gadgets/AAAAAAAAAAAAAAAA')).toEqual({
      status: 409,
      body: { field: 'key', code: 'gadgetInUse', params: { name: 'busy' } },
    });
    expect(t.saves).toEqual([]);
    expect(t.config().gadgets).toHaveLength(1);
  });

  it('runs changes one at a time: each starts from the config the previous one saved', async () => {
    const t = setup();
    const release = t.holdSaves();
    const first = t.call('POST', '/api/demo/gadgets', gadget('lamp', 80));
    const second = t.call('POST', '/api/demo/gadgets', gadget('fan', 90));
    const third = t.call('POST', '/api/demo/gadgets', gadget('lamp', 100));
    // The first save is under way (held); the others have not even read the config yet.
    await waitFor(() => t.order.includes('save 1'), { what: 'the first save' });
    expect(t.order).toEqual(['check lamp', 'save 1']);
    release();
    const [a, b, c] = await Promise.all([first, second, third]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // The third saw the first one's save: its name is taken.
    expect(c).toMatchObject({ status: 400, body: { code: 'nameTaken' } });
    expect(t.config().gadgets.map((g) => g.name)).toEqual(['lamp', 'fan']);
    expect(t.order).toEqual(['check lamp', 'save 1', 'check fan', 'save 2', 'check lamp']);
  });
});

// Guard (issue 13): one secret mechanism. For every module that names whole-value secrets, a
// distinct secret is planted at each of their paths (in the module's sample config), then every
// GET route of the module is read: none may answer a planted value, and each secret reads as
// the mask. A save of the masked slice must keep every stored secret. A module that names
// secrets without a sample, or whose sample misses a path, fails here.
import { maskSecrets, SECRET_MASK, secretValues } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modules } from '../../src/modules/index.js';
import { startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.login();
});
afterAll(async () => s?.close());

/** Replaces every string at `paths` with a distinct planted value; returns them. */
function plant(value: unknown, paths: readonly string[]): { planted: unknown; values: string[] } {
  const values: string[] = [];
  const walk = (v: unknown, parts: string[]): unknown => {
    if (parts.length === 0) {
      if (typeof v !== 'string') return v;
      const secret = `Pl4nted${values.length}Secret${Math.random().toString(36).slice(2, 10)}`;
      values.push(secret);
      return secret;
    }
    const [head, ...rest] = parts;
    if (head === '*') return Array.isArray(v) ? v.map((x) => walk(x, rest)) : v;
    if (!v || typeof v !== 'object' || !(head in v)) return v;
    return { ...(v as Record<string, unknown>), [head]: walk((v as Record<string, unknown>)[head], rest) };
  };
  let out = value;
  for (const p of paths) out = walk(out, p.split('.'));
  return { planted: out, values };
}

/** Every `key` field in the sample: route parameters to try. */
const keysIn = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.flatMap(keysIn)
    : v && typeof v === 'object'
      ? Object.entries(v).flatMap(([k, x]) => (k === 'key' && typeof x === 'string' ? [x] : keysIn(x)))
      : [];

/** Field names that hold a whole secret. */
const SECRET_NAME = /(password|passwd|secret|token|apikey|privatekey|tlskey|secretkey)$/i;

/** Paths (`rules.*.tls.key` style) of the schema's fields whose names say they hold a secret. */
function secretLookingPaths(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const out: string[] = [];
  const walk = (node: unknown, at: string[]) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.properties && typeof n.properties === 'object')
      for (const [name, child] of Object.entries(n.properties as Record<string, unknown>)) {
        const type = (child as { type?: unknown }).type;
        if (SECRET_NAME.test(name) && (type === 'string' || type === undefined)) out.push([...at, name].join('.'));
        walk(child, [...at, name]);
      }
    if (n.items) walk(n.items, [...at, '*']);
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
      if (Array.isArray(n[k])) for (const c of n[k] as unknown[]) walk(c, at);
  };
  walk(json, []);
  return [...new Set(out)];
}

describe('contract: every field named like a secret is declared as one', () => {
  for (const def of modules) {
    it(`${def.key}: secret-looking fields are in its secrets (or free text masked by secretText)`, () => {
      const declared = new Set(def.secrets ?? []);
      const free = new Set(def.freeTextSecrets ?? []);
      const missing = secretLookingPaths(def.configSchema).filter((p) => !declared.has(p) && !free.has(p));
      expect(missing).toEqual([]);
    });
  }
});

describe('contract: secrets are masked on every read and kept on a masked write', () => {
  for (const def of modules.filter((m) => m.secrets?.length)) {
    it(`${def.key}: no GET answers a planted secret; a masked save keeps them`, async () => {
      const paths = def.secrets ?? [];
      expect(def.sample, `${def.key} names secrets but has no sample()`).toBeTypeOf('function');
      // Off: the sample's rules need not run for their views to be read.
      const sample = { ...def.configSchema.parse(def.sample?.()), enabled: false };
      const { planted, values } = plant(sample, paths);
      expect(values.length, `${def.key}: the sample reaches every secret path`).toBeGreaterThanOrEqual(paths.length);
      await s.server.core.modules.saveConfig(def.key, planted);

      const keys = keysIn(planted);
      const routes = s.server.admin.registry.routes.filter(
        (r) => r.method === 'GET' && r.path.startsWith(`/api/${def.key}/`),
      );
      expect(routes.length).toBeGreaterThan(0);
      let masks = 0;
      for (const r of routes) {
        const urls = r.path.includes(':') ? keys.map((k) => r.path.replace(/:(\w+)/g, k)) : [r.path];
        for (const url of urls) {
          const res = await s.call('GET', url, { token });
          const text = JSON.stringify(res.body);
          for (const v of values) expect(text, `${url} answers a planted secret`).not.toContain(v);
          masks += text.split(SECRET_MASK).length - 1;
        }
      }
      expect(masks, `${def.key}: the secrets read as ${SECRET_MASK}`).toBeGreaterThan(0);

      // The slice sent back as a read shows it keeps every stored secret.
      await s.server.core.modules.saveConfig(def.key, maskSecrets(planted, paths));
      const stored = s.server.core.store.get().modules[def.key];
      expect(secretValues(stored, paths).sort()).toEqual([...values].sort());
    });
  }
});

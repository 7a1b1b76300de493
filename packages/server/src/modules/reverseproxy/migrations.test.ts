import { reverseproxyConfigSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { reverseproxyMigrations } from './migrations.js';

const migrate = (slice: Record<string, unknown>) => reverseproxyMigrations.reduce((s, m) => m(s), slice);

describe('reverseproxy config migrations', () => {
  it('v0 → v1: every `enable` (rule, default rule, sub rule, basic auth, CORS, robots) becomes `enabled`', () => {
    const old = {
      enabled: true,
      rules: [
        {
          key: 'R1',
          enable: false,
          port: 8080,
          defaultRule: { enable: true, basicAuth: { enable: true, user: 'u', password: 'p' }, cors: { enable: true } },
          subRules: [
            { key: 'S1', enable: false, domains: ['a.test'], serviceType: 'text', robots: { enable: true, text: 'x' } },
          ],
        },
      ],
    };
    const up = migrate(old);
    expect(JSON.stringify(up)).not.toContain('"enable"');
    const c = reverseproxyConfigSchema.parse(up);
    expect(c.rules[0].enabled).toBe(false);
    expect(c.rules[0].defaultRule.basicAuth).toMatchObject({ enabled: true, user: 'u', password: 'p' });
    expect(c.rules[0].defaultRule.cors.enabled).toBe(true);
    expect(c.rules[0].subRules[0]).toMatchObject({ enabled: false, robots: { enabled: true, text: 'x' } });
  });

  it('leaves a slice without rules, and a value already named `enabled`, as they are', () => {
    expect(migrate({})).toEqual({});
    expect(migrate({ rules: [{ key: 'R', enabled: true, enable: false }] })).toEqual({
      rules: [{ key: 'R', enabled: true }],
    });
  });
});

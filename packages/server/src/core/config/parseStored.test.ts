// Shared helpers behind the range refusals and the reading of older files (issue 13 §3).
import {
  baseSettingsSchema,
  type ClampedValue,
  classifyIssue,
  numberRange,
  parseStored,
  portforwardConfigSchema,
  TIME_ZONES,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('parseStored', () => {
  const schema = z.object({
    a: z.number().int().min(1).max(5).default(2),
    list: z.array(z.object({ n: z.number().min(0).max(9) })).default([]),
    name: z.string().max(3).default(''),
  });

  it('reads in-range documents as the schema does, without copying', () => {
    expect(parseStored(schema, { a: 3 })).toEqual({ a: 3, list: [], name: '' });
  });

  it('reads each out-of-range number as its nearest bound and reports it; the input is not changed', () => {
    const doc = { a: 70, list: [{ n: -1 }, { n: 4 }, { n: 12 }] };
    const seen: ClampedValue[] = [];
    expect(parseStored(schema, doc, (c) => seen.push(c))).toEqual({
      a: 5,
      list: [{ n: 0 }, { n: 4 }, { n: 9 }],
      name: '',
    });
    expect(seen).toEqual([
      { field: 'a', from: 70, to: 5 },
      { field: 'list.0.n', from: -1, to: 0 },
      { field: 'list.2.n', from: 12, to: 9 },
    ]);
    expect(doc.a).toBe(70);
  });

  it('still refuses what is not a number out of range', () => {
    expect(() => parseStored(schema, { a: 'x' })).toThrow();
    expect(() => parseStored(schema, { a: 9, name: 'toolong' })).toThrow();
  });

  it('works through a preprocessed module slice', () => {
    expect(parseStored(portforwardConfigSchema, { ruleLimit: 0, maxTcpConnections: 99999 })).toMatchObject({
      ruleLimit: 1,
      maxTcpConnections: 16384,
    });
  });
});

describe('numberRange and classifyIssue', () => {
  it('finds both ends of a field through defaults, optionals, objects and arrays', () => {
    expect(numberRange(baseSettingsSchema, ['adminPort'])).toEqual({ min: 1, max: 65535 });
    expect(numberRange(baseSettingsSchema.partial(), ['logMaxSize'])).toEqual({ min: 1024, max: 40960 });
    expect(numberRange(portforwardConfigSchema, ['rules', 0, 'logShowLatest'])).toEqual({ min: 1, max: 256 });
    expect(numberRange(baseSettingsSchema, ['securityEntrance'])).toEqual({});
  });

  it('puts the whole range in the params of a refused number when given the schema', () => {
    const r = baseSettingsSchema.safeParse({ adminPort: 70000 });
    expect(r.success).toBe(false);
    const issue = r.error?.issues[0];
    if (!issue) throw new Error('no issue');
    expect(classifyIssue(issue, {})).toEqual({ field: 'adminPort', code: 'tooBig', params: { max: 65535 } });
    expect(classifyIssue(issue, {}, baseSettingsSchema)).toEqual({
      field: 'adminPort',
      code: 'tooBig',
      params: { min: 1, max: 65535 },
    });
  });
});

describe('TIME_ZONES', () => {
  it('has about 100 distinct IANA names, each one Intl accepts, UTC among them', () => {
    expect(TIME_ZONES.length).toBe(100);
    expect(new Set(TIME_ZONES).size).toBe(100);
    expect(TIME_ZONES).toContain('UTC');
    expect(TIME_ZONES).toContain('Asia/Shanghai');
    for (const zone of TIME_ZONES) expect(() => new Intl.DateTimeFormat('en', { timeZone: zone }), zone).not.toThrow();
  });

  it('is ordered west to east by standard offset', () => {
    const offsetAt = (zone: string, iso: string) => {
      const parts = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(
        new Date(iso),
      );
      const m = /GMT([+-])(\d\d):(\d\d)/.exec(parts.find((p) => p.type === 'timeZoneName')?.value ?? '');
      return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
    };
    // Summer time only ever adds: the smaller of January and July is the standard offset.
    const standard = TIME_ZONES.map((z) =>
      Math.min(offsetAt(z, '2026-01-15T12:00:00Z'), offsetAt(z, '2026-07-15T12:00:00Z')),
    );
    expect(standard).toEqual([...standard].sort((a, b) => a - b));
  });
});

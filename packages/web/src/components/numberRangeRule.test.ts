// antd's InputNumber with min / max moves a typed 70000 to 65535 on blur and the form saves that
// with a success message (issue 13 §3). Inputs of saved settings take no min / max; their form
// rule refuses the value with the field's range. This guards every screen against a new one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { numberRangeRule } from './numberRangeRule';

/** View controls that are not saved settings (the custom refresh interval ignores what is below 1 s). */
const ALLOWED = new Set(['components/RefreshControl.tsx']);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.tsx') && !p.endsWith('.test.tsx')) out.push(p);
  }
  return out;
}

describe('number inputs', () => {
  it('no InputNumber of a saved setting clamps (min / max props)', () => {
    const root = path.resolve(__dirname, '..');
    const clamping: string[] = [];
    for (const file of sources(root)) {
      const rel = path.relative(root, file);
      if (ALLOWED.has(rel)) continue;
      const text = readFileSync(file, 'utf8');
      for (let i = text.indexOf('<InputNumber'); i >= 0; i = text.indexOf('<InputNumber', i + 1)) {
        const tag = text.slice(i, text.indexOf('/>', i));
        if (/\s(min|max)=/.test(tag)) clamping.push(rel);
      }
    }
    expect(clamping).toEqual([]);
  });

  it('the rule refuses out-of-range and fractional numbers with the range', async () => {
    const t = (k: string, v?: Record<string, unknown>) => `${k} ${v?.min}-${v?.max}`;
    const rule = numberRangeRule(t, 1, 65535) as { validator: (r: unknown, v: unknown) => Promise<void> };
    await expect(rule.validator({}, 80)).resolves.toBeUndefined();
    await expect(rule.validator({}, 70000)).rejects.toThrow('common.rangeError 1-65535');
    await expect(rule.validator({}, 0)).rejects.toThrow('common.rangeError 1-65535');
    await expect(rule.validator({}, 1.5)).rejects.toThrow();
    await expect(rule.validator({}, null)).rejects.toThrow();
  });
});

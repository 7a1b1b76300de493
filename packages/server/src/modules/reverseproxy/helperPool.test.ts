import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { helperSettings } from './helperPool.js';

describe('helperSettings', () => {
  const cores = os.availableParallelism();
  const byDefault = Math.min(Math.max(cores - 1, 0), 3);

  it('defaults to one helper per further core, at most 3, started under load', () => {
    expect(helperSettings({})).toEqual({ max: byDefault, eager: false });
  });

  it('takes LUCKY_WEB_HELPERS as the count (0 turns them off, at most 16)', () => {
    expect(helperSettings({ LUCKY_WEB_HELPERS: '0' }).max).toBe(0);
    expect(helperSettings({ LUCKY_WEB_HELPERS: '2' }).max).toBe(2);
    expect(helperSettings({ LUCKY_WEB_HELPERS: '99' }).max).toBe(16);
  });

  it('ignores a count that is not a number or negative', () => {
    expect(helperSettings({ LUCKY_WEB_HELPERS: 'many' }).max).toBe(byDefault);
    expect(helperSettings({ LUCKY_WEB_HELPERS: '-1' }).max).toBe(byDefault);
  });

  it('starts them with the first rule only when asked (LUCKY_WEB_HELPERS_START=eager)', () => {
    expect(helperSettings({ LUCKY_WEB_HELPERS_START: 'eager' }).eager).toBe(true);
    expect(helperSettings({ LUCKY_WEB_HELPERS_START: 'yes' }).eager).toBe(false);
  });
});

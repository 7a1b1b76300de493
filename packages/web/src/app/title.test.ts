import { describe, expect, it } from 'vitest';
import { pageTitle, routeTitleKey } from './title';

describe('page title (spec §2)', () => {
  it('is "Lucky | {route title}" when the route has a title', () => {
    expect(pageTitle('登录')).toBe('Lucky | 登录');
    expect(pageTitle('Scheduled tasks')).toBe('Lucky | Scheduled tasks');
  });

  it('is "Lucky" without one', () => {
    expect(pageTitle()).toBe('Lucky');
    expect(pageTitle('')).toBe('Lucky');
    expect(pageTitle('  ')).toBe('Lucky');
    expect(pageTitle(null)).toBe('Lucky');
  });

  it('takes the innermost route that declares a title', () => {
    expect(routeTitleKey([{ handle: undefined }, { handle: { titleKey: 'title.login' } }])).toBe('title.login');
    expect(routeTitleKey([{ handle: { titleKey: 'outer' } }, { handle: {} }])).toBe('outer');
    expect(routeTitleKey([{}, { handle: {} }])).toBeUndefined();
  });
});

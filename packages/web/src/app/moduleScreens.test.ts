import { BUILT_MODULES } from '@lucky/shared';
import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { hasModuleScreen, MODULE_SCREENS, type ModuleScreenTable, moduleRoutes } from './moduleScreens';

const screen = { screen: lazy(async () => ({ default: () => null })) };

describe('module routes', () => {
  it('registers the screens this build has', () => {
    expect(Object.keys(MODULE_SCREENS)).toEqual([...BUILT_MODULES]);
    expect(
      moduleRoutes()
        .map((r) => r.key)
        .sort(),
    ).toEqual([...BUILT_MODULES].sort());
    expect(hasModuleScreen('reverseproxy')).toBe(true);
    expect(hasModuleScreen('portforward')).toBe(true);
    expect(hasModuleScreen('ddns')).toBe(true);
    expect(hasModuleScreen('wol')).toBe(true);
    expect(hasModuleScreen('wanji_admin')).toBe(true);
    expect(hasModuleScreen('wol', {})).toBe(false);
  });

  it('registers only modules with a screen, in the fixed order of spec §2', () => {
    const table: ModuleScreenTable = {
      storagemanagement: screen,
      reverseproxy: screen,
      ddns: screen,
      acme: screen,
      wanji_admin: screen,
      cron: screen,
      wol: screen,
    };
    const routes = moduleRoutes(table);
    expect(routes.map((r) => r.path)).toEqual([
      'acme',
      'cron',
      'ddns',
      'web',
      'wol',
      'storagemanagement',
      'wanjiadmin',
    ]);
    expect(routes.find((r) => r.key === 'cron')?.titleKey).toBe('title.cron');
    expect(routes.find((r) => r.key === 'wol')?.titleKey).toBe('title.wol');
    expect(routes.find((r) => r.key === 'ddns')?.titleKey).toBeUndefined();
    expect(hasModuleScreen('ddns', table)).toBe(true);
    expect(hasModuleScreen('stun', table)).toBe(false);
  });
});

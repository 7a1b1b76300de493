import { describe, expect, it } from 'vitest';
import { buildMenu, groupKeys, type MenuEntry, menuPlacement, selectedKey } from './menuModel';

const everyScreen = () => true;

/** A compact picture of the menu: keys, '—' for separators, groups as [key: ...children]. */
function shape(entries: readonly MenuEntry[]): string[] {
  return entries.map((e) => {
    if (e.kind === 'divider') return '—';
    if (e.kind === 'group') return `[${e.key}: ${shape(e.children).join(' ')}]`;
    return e.key;
  });
}

describe('menu placement (spec §2)', () => {
  it('shows the left menu above 1200 px', () => {
    expect(menuPlacement(1300, '/status')).toBe('side');
    expect(menuPlacement(1201, '/about')).toBe('side');
  });

  it('uses the top-bar menu at 1200 px and below', () => {
    expect(menuPlacement(1200, '/status')).toBe('top');
    expect(menuPlacement(1000, '/set')).toBe('top');
    expect(menuPlacement(375, '/safe')).toBe('top');
  });

  it('has no menu at all on /login, whatever the width', () => {
    expect(menuPlacement(1300, '/login')).toBe('none');
    expect(menuPlacement(1000, '/login')).toBe('none');
  });
});

describe('menu entries', () => {
  it('without modules: overview, program log, security, settings, about, logout', () => {
    expect(shape(buildMenu([], everyScreen))).toEqual(['status', 'log', '—', 'safe', 'set', 'about', '—', 'logout']);
  });

  it('program log and logout are actions, not routes', () => {
    const menu = buildMenu([], everyScreen);
    expect(menu.find((e) => e.key === 'log')?.kind).toBe('action');
    expect(menu.find((e) => e.key === 'logout')?.kind).toBe('action');
    expect(menu.find((e) => e.key === 'status')).toMatchObject({ kind: 'route', path: '/status' });
    expect(menu.find((e) => e.key === 'safe')).toMatchObject({ kind: 'route', path: '/safe' });
    expect(menu.find((e) => e.key === 'set')).toMatchObject({ kind: 'route', path: '/set' });
    expect(menu.find((e) => e.key === 'about')).toMatchObject({ kind: 'route', path: '/about' });
  });

  it('follows the module list, in the fixed menu order, whatever order the server sends', () => {
    const menu = buildMenu(['cron', 'wol', 'stun', 'portforward', 'reverseproxy', 'ddns', 'wanji_admin'], everyScreen);
    expect(shape(menu)).toEqual([
      'status',
      'log',
      '—',
      'ddns',
      'reverseproxy',
      'portforward',
      'stun',
      'wanji_admin',
      'wol',
      'cron',
      '—',
      'safe',
      'set',
      'about',
      '—',
      'logout',
    ]);
  });

  it('shows reverseproxy as Web on /web, and pushes wanjiadmin without a leading slash', () => {
    const menu = buildMenu(['reverseproxy', 'wanji_admin'], everyScreen);
    expect(menu.find((e) => e.key === 'reverseproxy')).toMatchObject({ path: '/web', labelKey: 'menu.reverseproxy' });
    expect(menu.find((e) => e.key === 'wanji_admin')).toMatchObject({ kind: 'route', path: 'wanjiadmin' });
  });

  it('ignores unknown keys and modules without a screen', () => {
    const onlyDdns = (k: string) => k === 'ddns';
    expect(shape(buildMenu(['ddns', 'stun', 'nonsense'], onlyDdns))).toEqual([
      'status',
      'log',
      '—',
      'ddns',
      '—',
      'safe',
      'set',
      'about',
      '—',
      'logout',
    ]);
  });
});

describe('network storage group', () => {
  const group = (...modules: string[]) => shape(buildMenu(modules, everyScreen)).filter((s) => s.startsWith('['));

  it('is hidden without webdav and filebrowser, even when other storage modules are listed', () => {
    expect(group('storagemanagement', 'ftpserver')).toEqual([]);
  });

  it('shows with webdav alone', () => {
    expect(group('webdav')).toEqual(['[network-storage: webdav]']);
  });

  it('shows with filebrowser alone', () => {
    expect(group('filebrowser')).toEqual(['[network-storage: filebrowser]']);
  });

  it('puts separators only between sections that are present', () => {
    expect(group('webdav', 'filebrowser', 'ftpserver', 'storagemanagement')).toEqual([
      '[network-storage: storagemanagement — webdav ftpserver — filebrowser]',
    ]);
    expect(group('webdav', 'ftpserver')).toEqual(['[network-storage: webdav ftpserver]']);
    expect(group('storagemanagement', 'filebrowser')).toEqual(['[network-storage: storagemanagement — filebrowser]']);
    expect(group('webdav', 'filebrowser')).toEqual(['[network-storage: webdav — filebrowser]']);
  });

  it('sits after STUN and before wanji admin', () => {
    const keys = shape(buildMenu(['wanji_admin', 'webdav', 'stun'], everyScreen));
    expect(keys.slice(3, 6)).toEqual(['stun', '[network-storage: webdav]', 'wanji_admin']);
  });

  it('is opened by default through groupKeys', () => {
    expect(groupKeys(buildMenu(['webdav'], everyScreen))).toEqual(['network-storage']);
    expect(groupKeys(buildMenu(['ddns'], everyScreen))).toEqual([]);
  });
});

describe('selected entry', () => {
  it('matches the current route, inside groups too', () => {
    const menu = buildMenu(['webdav', 'wanji_admin'], everyScreen);
    expect(selectedKey(menu, '/set')).toBe('set');
    expect(selectedKey(menu, '/webdav')).toBe('webdav');
    expect(selectedKey(menu, '/wanjiadmin')).toBe('wanji_admin');
    expect(selectedKey(menu, '/nowhere')).toBeUndefined();
  });
});

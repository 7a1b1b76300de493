// The menu as data, free of React so the spec's rules are unit-tested:
// overview, program log, the modules the server lists, security, settings,
// about, logout; the network-storage group only with webdav or filebrowser.
import {
  MENU_BREAKPOINT_PX,
  MODULE_ROUTES,
  type ModuleKey,
  NETWORK_STORAGE_SECTIONS,
  NETWORK_STORAGE_TRIGGERS,
} from '@lucky/shared';

export type MenuIcon =
  | 'status'
  | 'log'
  | 'ddns'
  | 'web'
  | 'portforward'
  | 'stun'
  | 'storage'
  | 'storagemanagement'
  | 'webdav'
  | 'ftpserver'
  | 'filebrowser'
  | 'wanji_admin'
  | 'wol'
  | 'cron'
  | 'acme'
  | 'safe'
  | 'set'
  | 'about'
  | 'logout';

export type MenuEntry =
  | { kind: 'route'; key: string; labelKey: string; icon: MenuIcon; path: string }
  | { kind: 'action'; key: 'log' | 'logout'; labelKey: string; icon: MenuIcon }
  | { kind: 'group'; key: string; labelKey: string; icon: MenuIcon; children: MenuEntry[] }
  | { kind: 'divider'; key: string };

/** Module entries in menu order (spec §4's module list). acme has no place there; it follows cron. */
const MODULE_MENU_ORDER = [
  'ddns',
  'reverseproxy',
  'portforward',
  'stun',
  'network-storage',
  'wanji_admin',
  'wol',
  'cron',
  'acme',
] as const;

/** A module without its own icon (a new one, before it has a drawing) gets the overview's. */
const MODULE_ICON: Partial<Record<ModuleKey, MenuIcon>> = {
  ddns: 'ddns',
  reverseproxy: 'web',
  portforward: 'portforward',
  stun: 'stun',
  wol: 'wol',
  cron: 'cron',
  acme: 'acme',
  webdav: 'webdav',
  ftpserver: 'ftpserver',
  filebrowser: 'filebrowser',
  storagemanagement: 'storagemanagement',
  wanji_admin: 'wanji_admin',
};

function moduleEntry(key: ModuleKey): MenuEntry {
  // `reverseproxy` is shown as "Web"; wanji_admin's path has no leading slash (spec §2).
  return { kind: 'route', key, labelKey: `menu.${key}`, icon: MODULE_ICON[key] ?? 'status', path: MODULE_ROUTES[key] };
}

function networkStorageGroup(present: (key: ModuleKey) => boolean): MenuEntry | null {
  if (!NETWORK_STORAGE_TRIGGERS.some(present)) return null;
  const children: MenuEntry[] = [];
  for (const section of NETWORK_STORAGE_SECTIONS) {
    const entries = section.filter(present).map(moduleEntry);
    if (entries.length === 0) continue;
    if (children.length > 0) children.push({ kind: 'divider', key: `network-storage-divider-${section[0]}` });
    children.push(...entries);
  }
  return { kind: 'group', key: 'network-storage', labelKey: 'menu.networkStorage', icon: 'storage', children };
}

/**
 * @param modules keys from `/api/modules/list`
 * @param hasScreen whether this build has a screen (route) for the module; a
 *   listed module without one gets no entry, since it would lead nowhere.
 */
export function buildMenu(modules: readonly string[], hasScreen: (key: ModuleKey) => boolean): MenuEntry[] {
  const listed = new Set(modules);
  const present = (key: ModuleKey) => listed.has(key) && hasScreen(key);

  const moduleEntries: MenuEntry[] = [];
  for (const key of MODULE_MENU_ORDER) {
    if (key === 'network-storage') {
      const group = networkStorageGroup(present);
      if (group) moduleEntries.push(group);
    } else if (present(key)) {
      moduleEntries.push(moduleEntry(key));
    }
  }
  // A module the spec's menu order does not place (a newly scaffolded one) follows the others.
  const placed = new Set<string>([...MODULE_MENU_ORDER, ...NETWORK_STORAGE_SECTIONS.flat()]);
  for (const key of modules)
    if (!placed.has(key) && present(key as ModuleKey)) moduleEntries.push(moduleEntry(key as ModuleKey));

  return [
    { kind: 'route', key: 'status', labelKey: 'menu.status', icon: 'status', path: '/status' },
    { kind: 'action', key: 'log', labelKey: 'menu.log', icon: 'log' },
    ...(moduleEntries.length > 0 ? [{ kind: 'divider', key: 'modules-start' } as const, ...moduleEntries] : []),
    { kind: 'divider', key: 'system-start' },
    { kind: 'route', key: 'safe', labelKey: 'menu.safe', icon: 'safe', path: '/safe' },
    { kind: 'route', key: 'set', labelKey: 'menu.set', icon: 'set', path: '/set' },
    { kind: 'route', key: 'about', labelKey: 'menu.about', icon: 'about', path: '/about' },
    { kind: 'divider', key: 'logout-start' },
    { kind: 'action', key: 'logout', labelKey: 'menu.logout', icon: 'logout' },
  ];
}

export type MenuPlacement = 'side' | 'top' | 'none';

/** Spec §2: no menu on /login; a left menu above 1200 px; the top-bar menu at 1200 px and below. */
export function menuPlacement(windowWidth: number, pathname: string): MenuPlacement {
  if (pathname === '/login') return 'none';
  return windowWidth > MENU_BREAKPOINT_PX ? 'side' : 'top';
}

/** The entry whose route is the current location, for highlighting. */
export function selectedKey(entries: readonly MenuEntry[], pathname: string): string | undefined {
  for (const e of entries) {
    if (e.kind === 'route' && `/${e.path.replace(/^\//, '')}` === pathname) return e.key;
    if (e.kind === 'group') {
      const inner = selectedKey(e.children, pathname);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Keys of the groups, for menus that open them by default. */
export function groupKeys(entries: readonly MenuEntry[]): string[] {
  return entries.filter((e) => e.kind === 'group').map((e) => e.key);
}

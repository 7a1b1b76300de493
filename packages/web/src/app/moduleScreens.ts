// Module screens in this build. A module the server lists gets a route and a
// menu entry only when its screen is registered here (spec §2: "module routes
// are registered only for modules that have a route"). Each screen is lazy, so
// it is its own chunk; a screen is added as
//   ddns: { screen: lazy(() => import('../modules/ddns/DdnsScreen')) },
import { type BuiltModule, MODULE_ROUTE_ORDER, MODULE_ROUTES, type ModuleKey } from '@lucky/shared';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export interface ModuleScreen {
  screen: LazyExoticComponent<ComponentType>;
}

export type ModuleScreenTable = Partial<Record<ModuleKey, ModuleScreen>>;

/** One screen for every module of THE list (BUILT_MODULES): the type requires each. */
export const MODULE_SCREENS: Record<BuiltModule, ModuleScreen> = {
  ddns: { screen: lazy(() => import('../modules/ddns/DdnsScreen')) },
  portforward: { screen: lazy(() => import('../modules/portforward/PortforwardScreen')) },
  reverseproxy: { screen: lazy(() => import('../modules/reverseproxy/ReverseproxyScreen')) },
  stun: { screen: lazy(() => import('../modules/stun/StunScreen')) },
  storagemanagement: { screen: lazy(() => import('../modules/storagemanagement/StoragemanagementScreen')) },
  webdav: { screen: lazy(() => import('../modules/webdav/WebdavScreen')) },
  ftpserver: { screen: lazy(() => import('../modules/ftpserver/FtpserverScreen')) },
  filebrowser: { screen: lazy(() => import('../modules/filebrowser/FilebrowserScreen')) },
  acme: { screen: lazy(() => import('../modules/acme/AcmeScreen')) },
  wol: { screen: lazy(() => import('../modules/wol/WolScreen')) },
  cron: { screen: lazy(() => import('../modules/cron/CronScreen')) },
  wanji_admin: { screen: lazy(() => import('../modules/wanji_admin/WanjiAdminScreen')) },
  // new-module: screens above this line
};

/** Route titles the spec gives module screens (§2); the others have none. */
export const MODULE_TITLE_KEYS: Partial<Record<ModuleKey, string>> = {
  cron: 'title.cron',
  wol: 'title.wol',
};

export function hasModuleScreen(key: ModuleKey, table: ModuleScreenTable = MODULE_SCREENS): boolean {
  return table[key] !== undefined;
}

/** Route name of the fixed order (§2) → module key; `web` is the route of reverseproxy, `diy` has no module yet. */
function moduleKeyOfRouteName(name: string): ModuleKey | undefined {
  const entry = (Object.entries(MODULE_ROUTES) as [ModuleKey, string][]).find(
    ([, path]) => path.replace(/^\//, '') === name,
  );
  return entry?.[0];
}

export interface ModuleRoute {
  key: ModuleKey;
  /** Router path, relative to the root (no leading slash). */
  path: string;
  titleKey?: string;
  screen: ModuleScreen['screen'];
}

/**
 * The module routes in the spec's fixed order: diy, acme, ftpserver, webdav,
 * cron, ddns, portforward, web, wol, stun, filebrowser, storagemanagement —
 * then any other module with a screen (wanji_admin).
 */
export function moduleRoutes(table: ModuleScreenTable = MODULE_SCREENS): ModuleRoute[] {
  const ordered: ModuleKey[] = [];
  for (const name of MODULE_ROUTE_ORDER) {
    const key = moduleKeyOfRouteName(name);
    if (key) ordered.push(key);
  }
  for (const key of Object.keys(table) as ModuleKey[]) if (!ordered.includes(key)) ordered.push(key);
  return ordered.flatMap((key) => {
    const entry = table[key];
    if (!entry) return [];
    return [
      { key, path: MODULE_ROUTES[key].replace(/^\//, ''), titleKey: MODULE_TITLE_KEYS[key], screen: entry.screen },
    ];
  });
}

// Module keys as the spec spells them: one name per concept on the wire, in
// code, in config and in the locale namespaces.
export const MODULE_KEYS = [
  'ddns',
  'reverseproxy',
  'portforward',
  'stun',
  'wol',
  'cron',
  'acme',
  'webdav',
  'ftpserver',
  'filebrowser',
  'storagemanagement',
  'wanji_admin',
  // new-module: spec keys above this line
] as const;
export type ModuleKey = (typeof MODULE_KEYS)[number];

/**
 * THE list of modules this build has, in start order. Everything else is derived from it and
 * checked against it by the type checker: the server's definitions (src/modules/index.ts), the
 * browser's screens (app/moduleScreens.ts), the tests. A module is listed once its issue is done
 * (`npm run new-module -- <key>` adds one).
 */
export const BUILT_MODULES = [
  'ddns',
  'portforward',
  'reverseproxy',
  'stun',
  'storagemanagement',
  'webdav',
  'ftpserver',
  'filebrowser',
  'acme',
  'wol',
  'cron',
  'wanji_admin',
  // new-module: keys above this line
] as const satisfies readonly ModuleKey[];
export type BuiltModule = (typeof BUILT_MODULES)[number];

/** Fixed order of module routes in the menu (spec section 2). `web` is the route of `reverseproxy`. */
export const MODULE_ROUTE_ORDER = [
  'diy',
  'acme',
  'ftpserver',
  'webdav',
  'cron',
  'ddns',
  'portforward',
  'web',
  'wol',
  'stun',
  'filebrowser',
  'storagemanagement',
] as const;

/** Route of each module's screen; wanji_admin is pushed without a leading slash. */
export const MODULE_ROUTES: Record<ModuleKey, string> = {
  ddns: '/ddns',
  reverseproxy: '/web',
  portforward: '/portforward',
  stun: '/stun',
  wol: '/wol',
  cron: '/cron',
  acme: '/acme',
  webdav: '/webdav',
  ftpserver: '/ftpserver',
  filebrowser: '/filebrowser',
  storagemanagement: '/storagemanagement',
  wanji_admin: 'wanjiadmin',
  // new-module: routes above this line
};

/** The network-storage menu group is shown only when one of these is present (spec §4). */
export const NETWORK_STORAGE_TRIGGERS: readonly ModuleKey[] = ['webdav', 'filebrowser'];
/**
 * The network-storage group, in sections: the storages, the services that export them, the file
 * manager. A separator sits between two sections only when both have an entry (spec §4).
 */
export const NETWORK_STORAGE_SECTIONS: readonly (readonly ModuleKey[])[] = [
  ['storagemanagement'],
  ['webdav', 'ftpserver'],
  ['filebrowser'],
];

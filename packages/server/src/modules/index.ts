import { BUILT_MODULES, type BuiltModule } from '@lucky/shared';
import type { ModuleDefinition } from '../core/modules/types.js';
import { acmeModule } from './acme/index.js';
import { cronModule } from './cron/index.js';
import { ddnsModule } from './ddns/index.js';
import { filebrowserModule } from './filebrowser/index.js';
import { ftpserverModule } from './ftpserver/index.js';
import { portforwardModule } from './portforward/index.js';
import { reverseproxyModule } from './reverseproxy/index.js';
import { storagemanagementModule } from './storagemanagement/index.js';
import { stunModule } from './stun/index.js';
import { wanjiAdminModule } from './wanji_admin/index.js';
import { webdavModule } from './webdav/index.js';
import { wolModule } from './wol/index.js';

// new-module: imports above this line

/**
 * Each module of THE list (BUILT_MODULES in packages/shared/src/modules.ts) with its definition:
 * the type requires one for every key, and nothing else. Absent modules are absent from
 * /api/modules/list too, so the browser shows no placeholder screens.
 */
// biome-ignore lint/suspicious/noExplicitAny: each module has its own config type
const DEFINITIONS: Record<BuiltModule, ModuleDefinition<any>> = {
  ddns: ddnsModule,
  portforward: portforwardModule,
  reverseproxy: reverseproxyModule,
  stun: stunModule,
  storagemanagement: storagemanagementModule,
  webdav: webdavModule,
  ftpserver: ftpserverModule,
  filebrowser: filebrowserModule,
  acme: acmeModule,
  wol: wolModule,
  cron: cronModule,
  wanji_admin: wanjiAdminModule,
  // new-module: definitions above this line
};

/** The modules in start order (THE list's order). */
// biome-ignore lint/suspicious/noExplicitAny: each module has its own config type
export const modules: ModuleDefinition<any>[] = BUILT_MODULES.map((key) => DEFINITIONS[key]);

import type { ModuleDefinition } from '../core/modules/types.js';
import { ddnsModule } from './ddns/index.js';
import { portforwardModule } from './portforward/index.js';
import { reverseproxyModule } from './reverseproxy/index.js';

/**
 * THE list of modules, in start order. A module appears here only when its
 * issue is done: absent modules are absent from /api/modules/list too, so the
 * browser shows no placeholder screens.
 */
// biome-ignore lint/suspicious/noExplicitAny: each module has its own config type
export const modules: ModuleDefinition<any>[] = [ddnsModule, portforwardModule, reverseproxyModule];

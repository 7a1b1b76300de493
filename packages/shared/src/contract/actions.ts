// Actions one module offers another (DDNS's `syncNow` for STUN; the scheduled-task module will run
// any of them): what an invocation answers, and what GET /api/modules/actions lists for the pickers
// of a screen. The server half is packages/server/src/core/modules/actions.ts.
import type { ModuleKey } from '../modules.js';
import type { Coded } from './coded.js';

/** What an invocation came to. A refusal (module off, no such action, bad input) is coded, never thrown. */
export interface ActionResult {
  ok: boolean;
  /** Why it failed (or what it did): a code of the core (`errors.<code>`) or of the offering module. */
  reason?: Coded;
  /** English, for logs and API users. */
  detail?: string;
}

/** An item an action can act on (a DDNS task, a STUN rule), for pickers. */
export interface ActionTarget {
  key: string;
  name: string;
}

export interface ModuleActionView {
  module: ModuleKey;
  name: string;
  /** The offering module's switch: an action of a module that is off answers `moduleOff`. */
  enabled: boolean;
  targets: ActionTarget[];
}

/** GET /api/modules/actions */
export interface ModuleActionsResponse {
  ret: 0;
  list: ModuleActionView[];
}

export { DavError } from './errors.js';
export { createDavHandler } from './handler.js';
export type { DavLock, LockManagerOptions, LockScope } from './locks.js';
export { LockManager } from './locks.js';
export type { DavAccess, DavEvent, DavMount, DavOptions } from './types.js';

// The WebDAV protocol engine (modules/webdav/dav/, RFC 4918 class 1 and 2 over the storage
// interface) as the module uses it: the module does the listener, the address rules and the
// sign-in, and hands each request to the engine with the user's access per mount.
export { createDavHandler, type DavAccess, type DavMount, LockManager } from './dav/index.js';

import type { ServeRequest, ServeResponse } from '../../core/serve/request.js';
import type { DavAccess } from './dav/index.js';

export type DavHandler = (req: ServeRequest, res: ServeResponse, who: DavAccess) => void;

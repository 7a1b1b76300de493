import path from 'node:path';
import type { FilebrowserRuntime } from './runtime.js';
import { Thumbnails } from './thumbnails.js';
import { Tickets } from './tickets.js';

export interface BrowseServices {
  tickets: Tickets;
  thumbnails: Thumbnails;
}

// Kept beside the runtime rather than in it: made on first use, gone with the runtime object
// (a restart of the module draws a new ticket key).
const made = new WeakMap<FilebrowserRuntime, BrowseServices>();

/** The read tickets and the thumbnail maker of this run of the module. */
export function browseServices(rt: FilebrowserRuntime): BrowseServices {
  let s = made.get(rt);
  if (!s) {
    s = {
      tickets: new Tickets(),
      thumbnails: new Thumbnails(path.join(rt.ctx.configDir, 'filebrowser', 'thumbs'), () => ({
        cacheBytes: rt.config.thumbnailCacheMb * 1024 * 1024,
        workers: rt.config.thumbnailWorkers,
      })),
    };
    made.set(rt, s);
  }
  return s;
}

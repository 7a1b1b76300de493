// Everything that serves traffic, in one module the runtime imports when the first
// enabled rule starts: its code and tables stay out of a process that has no
// web service rule running (idle RSS budget, bench/core.mjs).

export { HttpListener } from '../../core/serve/listener.js';
export { llhttpProblem } from '../../core/serve/llhttp.js';
export { createHandlers } from './handler.js';
export { HelperPool, helperSettings } from './helperPool.js';
export { Backends } from './proxy.js';

export * from './api.js';
export * from './base.js';
export * from './format.js';
export * from './limits.js';
export * from './modules/ddns.js';
export * from './modules/portforward.js';
export * from './modules.js';
export * from './net.js';

export * from './api.js';
export * from './base.js';
export * from './contract/index.js';
export * from './format.js';
export * from './limits.js';
export * from './modules/ddns.js';
export * from './modules/fieldIssue.js';
export * from './modules/portforward.js';
export * from './modules/reverseproxy.js';
export * from './modules/secretText.js';
export * from './modules/stun.js';
// new-module: exports above this line
export * from './modules.js';
export * from './net.js';
export * from './storedConfig.js';
export * from './timeZones.js';

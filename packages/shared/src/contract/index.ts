// The module contract's shared half: what every module's schemas, views and the UI agree on.
// docs/adding-a-module.md explains how a module uses each piece.

export * from './actions.js';
export * from './coded.js';
export * from './logPage.js';
export * from './secrets.js';
export * from './summary.js';
export * from './switch.js';
export * from './webhook.js';

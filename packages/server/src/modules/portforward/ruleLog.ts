// Moved to core/logs/ruleLog.ts: the web service module keeps its access logs in the same ring.
export { RuleLog, type RuleLogOptions } from '../../core/logs/ruleLog.js';

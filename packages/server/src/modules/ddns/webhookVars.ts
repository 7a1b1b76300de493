// DDNS's webhook variables: #{ipAddr} #{time} #{timestamp} #{taskName} #{recordType}
// #{successDomains} #{failedDomains} (comma lists) and #{successDomainsLine} #{failedDomainsLine}
// (one per line). The call itself is the core's (core/webhook/).
import { localTime, type TemplateVars } from '../../core/webhook/template.js';

export function webhookVars(o: {
  ip: string;
  ipError?: string;
  taskName: string;
  recordType: string;
  success: string[];
  failed: string[];
  now: Date;
}): TemplateVars {
  return {
    ipAddr: o.ip || `failed to get IP${o.ipError ? `: ${o.ipError}` : ''}`,
    time: localTime(o.now),
    timestamp: String(Math.floor(o.now.getTime() / 1000)),
    taskName: o.taskName,
    recordType: o.recordType,
    successDomains: o.success.join(','),
    failedDomains: o.failed.join(','),
    successDomainsLine: o.success.join('\n'),
    failedDomainsLine: o.failed.join('\n'),
  };
}

/** Demo data of the "test webhook" button (documentation addresses and names only). */
export function demoVars(now: Date): TemplateVars {
  return webhookVars({
    ip: '198.51.100.66',
    taskName: 'demo',
    recordType: 'A',
    success: ['www1.example.com', 'www2.example.com', 'www3.example.com'],
    failed: ['www1.example.net', 'www2.example.net'],
    now,
  });
}

// Answers of the web service API for the screen's tests.
import type { ReverseproxyLogEntry } from '@lucky/shared';
import { newServiceValues } from './serviceForm';
import type { RuleListResponse, RuleView, ServiceView, SubRuleView } from './types';

export function service(over: Partial<ServiceView> = {}): ServiceView {
  const base = newServiceValues();
  return { ...base, basicAuth: { ...base.basicAuth, passwordSet: false }, ...over };
}

export function subRule(over: Partial<SubRuleView> = {}): SubRuleView {
  return {
    ...service({ name: 'NAS', targets: ['http://192.168.1.10:5000'] }),
    key: 'SUB0000000000001',
    domains: ['nas.example.com'],
    pathPrefix: '/',
    ...over,
  };
}

export function ruleView(over: Partial<RuleView> = {}): RuleView {
  return {
    key: 'RULE000000000001',
    name: 'Home',
    enable: true,
    listenTypes: 'http',
    network: 'tcp',
    address: '',
    port: 8080,
    firewallAutoAllow: false,
    minTlsVersion: 'TLSv1.2',
    http2: true,
    h2c: false,
    http3: false,
    proxyProtocolFrom: [],
    defaultRule: service(),
    subRules: [subRule()],
    status: { state: 'running', warnings: [], port: 8080 },
    lastLogs: { default: [], SUB0000000000001: [] },
    ...over,
  };
}

export function logLine(seq: number, text: string, level: ReverseproxyLogEntry['level'] = 4): ReverseproxyLogEntry {
  return { seq, time: new Date(Date.UTC(2024, 4, 1, 10, 0, seq)).toISOString(), level, text };
}

export const listReply = (list: RuleView[]): RuleListResponse => ({ ret: 0, list });

// Answers of the web service API for the screen's tests.
import type {
  LogEntryView,
  ReverseproxyListResponse,
  ReverseproxyRuleView,
  ReverseproxyServiceView,
  ReverseproxySubRuleView,
} from '@lucky/shared';
import { newServiceValues } from './serviceForm';

export function service(over: Partial<ReverseproxyServiceView> = {}): ReverseproxyServiceView {
  const base = newServiceValues();
  return { ...base, ...over };
}

export function subRule(over: Partial<ReverseproxySubRuleView> = {}): ReverseproxySubRuleView {
  return {
    ...service({ name: 'NAS', targets: ['http://192.168.1.10:5000'] }),
    key: 'SUB0000000000001',
    domains: ['nas.example.com'],
    pathPrefix: '/',
    ...over,
  };
}

export function ruleView(over: Partial<ReverseproxyRuleView> = {}): ReverseproxyRuleView {
  return {
    key: 'RULE000000000001',
    name: 'Home',
    enabled: true,
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

export function logLine(
  seq: number,
  text: string,
  level: LogEntryView['level'] = 4,
  coded?: Pick<LogEntryView, 'code' | 'params'>,
): LogEntryView {
  return { seq, time: new Date(Date.UTC(2024, 4, 1, 10, 0, seq)).toISOString(), level, text, ...coded };
}

export const listReply = (list: ReverseproxyRuleView[], enabled = true): ReverseproxyListResponse => ({
  ret: 0,
  enabled,
  list,
});

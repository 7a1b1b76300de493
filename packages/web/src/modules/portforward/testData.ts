// Answers of the port-forwarding API for the screen's tests.
import type { PortforwardListResponse, PortforwardProxyStatus, PortforwardRuleView } from '@lucky/shared';
import { newRuleValues } from './ruleForm';

export function proxy(over: Partial<PortforwardProxyStatus> = {}): PortforwardProxyStatus {
  return {
    id: 'tcp6@:8080',
    protocol: 'tcp',
    type: 'tcp6',
    listen: '[::]:8080',
    port: 8080,
    targetPort: 80,
    state: 'running',
    connections: 0,
    sessions: 0,
    bytesIn: 0,
    bytesOut: 0,
    rateIn: 0,
    rateOut: 0,
    accepted: 0,
    refused: 0,
    ...over,
  };
}

export function ruleView(over: Partial<PortforwardRuleView> = {}): PortforwardRuleView {
  return {
    ...newRuleValues(),
    key: 'AAAAAAAAAAAAAAAA',
    name: 'NAS web',
    forwardTypes: ['tcp6'],
    listenPorts: '8080',
    targetAddresses: ['192.168.1.10'],
    targetPorts: '80',
    state: 'running',
    connections: 0,
    sessions: 0,
    bytesIn: 0,
    bytesOut: 0,
    rateIn: 0,
    rateOut: 0,
    proxies: [proxy()],
    lastLogs: [],
    ...over,
  };
}

export function listReply(list: PortforwardRuleView[], enabled = true): PortforwardListResponse {
  return {
    ret: 0,
    summary: {
      enabled,
      rules: list.length,
      proxies: list.reduce((n, r) => n + r.proxies.length, 0),
      proxyLimit: 128,
      tcpConnections: 0,
      maxTcpConnections: 1024,
      udpSessions: 0,
      maxUdpSessions: 1024,
      bytesIn: 0,
      bytesOut: 0,
      rateIn: 0,
      rateOut: 0,
    },
    list,
  };
}

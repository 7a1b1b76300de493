// Answers of the STUN API for the screen's tests.
import {
  type StunListResponse,
  type StunMappingView,
  type StunRuleView,
  type StunSettings,
  stunRuleSchema,
  stunSettingsSchema,
} from '@lucky/shared';

export const RULE_KEY = 'Rule0001';

export function mapping(over: Partial<StunMappingView> = {}): StunMappingView {
  return {
    protocol: 'tcp',
    state: 'open',
    since: Date.parse('2024-05-01T10:00:00Z'),
    localAddress: '0.0.0.0',
    localPort: 40000,
    publicAddress: '203.0.113.5:51234',
    server: 'stun.example.net:3478',
    lastCheck: Date.parse('2024-05-01T10:05:00Z'),
    changes: 1,
    portMaps: [],
    connections: 2,
    bytesIn: 1_234_567,
    bytesOut: 4000,
    rateIn: 2048,
    rateOut: 0,
    ...over,
  };
}

export function ruleView(over: Partial<StunRuleView> = {}): StunRuleView {
  const rule = stunRuleSchema.parse({
    key: RULE_KEY,
    name: 'NAS ssh',
    protocols: ['tcp', 'udp'],
    localPort: 40000,
    targetAddress: '192.168.1.10',
    targetPort: 22,
  });
  return {
    ...rule,
    state: 'running',
    mappings: [mapping()],
    webhookHistory: [],
    lastLogs: [],
    ...over,
  };
}

export function listReply(list: StunRuleView[], enabled = true): StunListResponse {
  const maps = list.flatMap((r) => r.mappings);
  return {
    ret: 0,
    summary: {
      enabled,
      rules: list.length,
      open: maps.filter((m) => m.state === 'open').length,
      broken: maps.filter((m) => m.state === 'broken').length,
    },
    list,
  };
}

export function settings(over: Partial<StunSettings> = {}): StunSettings {
  return { ...stunSettingsSchema.parse({ enabled: true }), ...over };
}

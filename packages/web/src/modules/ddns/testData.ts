// Answers of the DDNS API for the screen's tests.
import {
  type DdnsDomainState,
  type DdnsTaskListResponse,
  type DdnsTaskView,
  ddnsReason,
  ddnsTaskSchema,
  SECRET_MASK,
} from '@lucky/shared';

export const KEY = 'AAAAAAAAAAAAAAAA';

const created = ddnsReason('recordCreated', { type: 'A', ip: '203.0.113.10' });

export function domain(over: Partial<DdnsDomainState> = {}): DdnsDomainState {
  return {
    line: 'nas.example.com',
    fqdn: 'nas.example.com',
    sub: 'nas',
    root: 'example.com',
    params: {},
    status: 'succeeded',
    time: '2024-05-01T10:00:00.000Z',
    reason: created,
    history: [{ status: 'succeeded', time: '2024-05-01T10:00:00.000Z', reason: created }],
    ...over,
  };
}

export function taskView(over: Partial<DdnsTaskView> = {}, state: Partial<DdnsTaskView['state']> = {}): DdnsTaskView {
  const task = ddnsTaskSchema.parse({
    key: KEY,
    name: 'NAS',
    domains: ['nas.example.com'],
    ipSource: { type: 'url', urls: ['https://4.ipw.cn'] },
    dns: { provider: 'cloudflare', secret: SECRET_MASK },
  });
  return {
    ...task,
    ...over,
    state: {
      running: false,
      ip: '203.0.113.10',
      ipTime: '2024-05-01T10:00:00.000Z',
      lastCheck: '2024-05-01T10:00:00.000Z',
      domains: [domain()],
      ipHistory: [{ ip: '203.0.113.10', time: '2024-05-01T10:00:00.000Z' }],
      webhookHistory: [],
      ...state,
    },
  };
}

export const listReply = (list: DdnsTaskView[], enabled = true): DdnsTaskListResponse => ({ ret: 0, enabled, list });

// Views as the server answers them, for the component tests.
import type { WanjiConsoleListResponse, WanjiConsoleView, WanjiRemoteSummary } from '@lucky/shared';

export const FP_OLD = Array.from({ length: 32 }, () => 'AA').join(':');
export const FP_NEW = Array.from({ length: 32 }, () => 'BB').join(':');

export function summary(over: Partial<WanjiRemoteSummary> = {}): WanjiRemoteSummary {
  return {
    version: '2.9.1',
    startedAt: '2026-01-01T00:00:00Z',
    uptimeSeconds: 93784,
    hostname: 'nas',
    cpu: { percent: 12.5, cores: 4 },
    memory: { rss: 81_200_000, systemTotal: 8e9, systemFree: 2e9 },
    modules: [
      { key: 'ddns', state: 'running', errors: 0 },
      { key: 'wol', state: 'error', errors: 3, reason: { code: 'portInUse', params: { port: 9 } } },
      { key: 'cron', state: 'disabled', errors: 0 },
    ],
    certs: [{ name: 'nas.example', domains: ['nas.example'], notAfter: '2026-01-06T00:00:00Z', daysLeft: 5 }],
    ...over,
  };
}

export function consoleView(over: Partial<WanjiConsoleView> = {}): WanjiConsoleView {
  return {
    key: 'b1',
    name: 'NAS',
    enabled: true,
    url: 'https://192.168.1.2:16601',
    token: '******',
    tls: { mode: 'pin', fingerprint: FP_OLD, ca: '' },
    note: '',
    reachable: true,
    failures: 0,
    lastSeen: '2026-01-01T01:00:00Z',
    summary: summary(),
    ...over,
  };
}

export function listReply(list: WanjiConsoleView[]): WanjiConsoleListResponse {
  return { ret: 0, enabled: true, settings: { refreshSeconds: 15, timeoutMs: 5000 }, list };
}

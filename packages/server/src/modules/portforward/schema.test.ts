// The shared schema and port helpers (packages/shared/src/modules/portforward*.ts): both the
// form and the server validate with them, so their codes and fields are pinned here.
import {
  bindsOverlap,
  checkPortforwardRules,
  type ForwardType,
  findForwardLoop,
  isTargetAddress,
  type PortforwardRule,
  parsePortList,
  portforwardConfigSchema,
  portforwardIssues,
  portforwardRuleInputSchema,
  portforwardSettingsPatchSchema,
  proxySpecs,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { portforwardMigrations } from './migrations.js';

const portforwardIssue = portforwardIssues.fromZod;

const rule = (over: Partial<PortforwardRule> = {}): PortforwardRule =>
  portforwardRuleInputSchema.parse({
    forwardTypes: ['tcp4'],
    listenPorts: '8080',
    targetAddresses: ['192.168.1.2'],
    targetPorts: '80',
    ...over,
  }) as PortforwardRule & { key: string };

describe('parsePortList', () => {
  it('reads single ports and ranges', () => {
    expect(parsePortList(' 80, 8080-8082 ,1')).toEqual({ ok: true, ports: [80, 8080, 8081, 8082, 1] });
  });
  it.each([
    ['', 'portsRequired'],
    ['0', 'portListInvalid'],
    ['65536', 'portListInvalid'],
    ['90-80', 'portListInvalid'],
    ['80-80', 'portListInvalid'],
    ['80,', 'portListInvalid'],
    ['http', 'portListInvalid'],
    ['80,70-90', 'portListDuplicate'],
  ])('%j → %s', (input, code) => {
    expect(parsePortList(input)).toMatchObject({ ok: false, code });
  });
});

describe('rule expansion', () => {
  it('makes one proxy per type × port, paired by position or one target port for all', () => {
    const specs = proxySpecs(
      rule({ forwardTypes: ['tcp6', 'udp4'], listenPorts: '53,8000-8001', targetPorts: '5353' }),
    );
    expect(specs.map((s) => [s.id, s.host, s.ipv6Only, s.targetPort])).toEqual([
      ['tcp6@:53', '::', true, 5353],
      ['tcp6@:8000', '::', true, 5353],
      ['tcp6@:8001', '::', true, 5353],
      ['udp4@:53', '0.0.0.0', false, 5353],
      ['udp4@:8000', '0.0.0.0', false, 5353],
      ['udp4@:8001', '0.0.0.0', false, 5353],
    ]);
    const paired = proxySpecs(
      rule({ forwardTypes: ['tcp'], listenAddress: '::1', listenPorts: '1-2', targetPorts: '11-12' }),
    );
    expect(paired.map((s) => [s.id, s.targetPort])).toEqual([
      ['tcp@[::1]:1', 11],
      ['tcp@[::1]:2', 12],
    ]);
  });

  it('knows which binds fight over a port', () => {
    const b = (host: string, ipv6Only = host.includes(':'), protocol: 'tcp' | 'udp' = 'tcp') => ({
      protocol,
      host,
      ipv6Only,
      port: 80,
    });
    expect(bindsOverlap(b('0.0.0.0'), b('127.0.0.1'))).toBe(true);
    expect(bindsOverlap(b('::', false), b('127.0.0.1'))).toBe(true);
    expect(bindsOverlap(b('::', true), b('127.0.0.1'))).toBe(false);
    expect(bindsOverlap(b('::', true), b('0:0::1'))).toBe(true);
    expect(bindsOverlap(b('127.0.0.1'), b('127.0.0.2'))).toBe(false);
    expect(bindsOverlap(b('127.0.0.1'), b('127.0.0.1', false, 'udp'))).toBe(false);
  });

  it('finds a rule forwarding to itself, but not an IPv6-to-IPv4 bridge on the same port', () => {
    const r = (forwardTypes: ForwardType[], listenAddress: string, target: string) => ({
      forwardTypes,
      listenAddress,
      listenPorts: '8080',
      targetAddresses: [target],
      targetPorts: '8080',
    });
    expect(findForwardLoop(r(['tcp'], '', 'localhost'))).toBeTruthy();
    expect(findForwardLoop(r(['tcp4'], '', '127.0.0.1'))).toBeTruthy();
    expect(findForwardLoop(r(['tcp6'], '', '127.0.0.1'))).toBeUndefined();
    expect(findForwardLoop(r(['tcp4'], '192.168.1.2', '192.168.1.2'))).toBeTruthy();
    expect(findForwardLoop(r(['tcp4'], '', '192.168.1.2'))).toBeUndefined();
    const loop = portforwardRuleInputSchema.safeParse(r(['udp'], '', '::1'));
    expect(loop.success ? undefined : portforwardIssue(loop.error.issues[0])).toMatchObject({
      field: 'targetPorts',
      code: 'forwardLoop',
    });
  });
});

describe('cross-rule checks', () => {
  it('reports a listen-port clash between enabled rules, and the proxy count', () => {
    const a = { ...rule({ name: 'a' }), key: 'A' };
    const b = { ...rule({ name: 'b', listenAddress: '127.0.0.1' }), key: 'B' };
    const c = { ...rule({ name: 'c', enabled: false }), key: 'C' };
    expect(checkPortforwardRules([a, b, c], 3)).toEqual([
      {
        ruleKey: 'B',
        otherKey: 'A',
        field: 'listenPorts',
        code: 'portConflict',
        params: { port: 8080, protocol: 'tcp', rule: 'a' },
      },
    ]);
    expect(checkPortforwardRules([a, c], 1)[0]).toMatchObject({
      code: 'ruleLimitExceeded',
      params: { count: 2, limit: 1 },
    });
  });
});

describe('schema', () => {
  it('an empty slice is the module off with no rules and the ancestor’s limits', () => {
    expect(portforwardConfigSchema.parse({})).toEqual({
      enabled: false,
      ruleLimit: 128,
      maxTcpConnections: 1024,
      maxUdpSessions: 1024,
      perIpMaxConnections: 0,
      connectionSpeedLimit: 0,
      connectTimeoutMs: 5000,
      rules: [],
    });
  });

  it('migration 0 → 1: a rule saved before the per-address default gets the default cap; a 0 chosen since stays', () => {
    const saved = { ...rule({ name: 'old' }), key: 'OLD', perIpMaxConnections: 0 } as Record<string, unknown>;
    delete saved.tcpIdleTimeoutMs;
    const chosen = { ...rule({ name: 'new', listenPorts: '8081' }), key: 'NEW', perIpMaxConnections: 0 };
    expect(portforwardMigrations).toHaveLength(1);
    const migrated = portforwardMigrations[0]({ rules: [saved, chosen] });
    // The schema itself no longer reshapes old files.
    expect(portforwardConfigSchema.parse({ rules: [saved] }).rules[0].perIpMaxConnections).toBe(0);
    const parsed = portforwardConfigSchema.parse(migrated);
    expect(parsed.rules.map((r) => [r.key, r.perIpMaxConnections, r.tcpIdleTimeoutMs])).toEqual([
      ['OLD', 64, 30 * 60_000],
      ['NEW', 0, 30 * 60_000],
    ]);
  });

  it('a rule gets the defaults of the add dialog; brackets around IPv6 are dropped', () => {
    const r = rule({ listenAddress: '[::1]', forwardTypes: ['tcp6'], targetAddresses: ['[fe80::1%eth0]'] });
    expect(r).toMatchObject({
      listenAddress: '::1',
      targetAddresses: ['fe80::1%eth0'],
      enabled: true,
      udpPacketSize: 1500,
      udpTimeoutMs: 30000,
      logLevel: 4,
      logCapacity: 1024,
      logShowLatest: 20,
      tlsMode: 'none',
      accessMode: 'off',
    });
  });

  it('turns issues into field + code + English text', () => {
    const r = portforwardRuleInputSchema.safeParse({
      forwardTypes: [],
      listenPorts: '1',
      targetAddresses: ['x'],
      targetPorts: '1',
    });
    expect(r.success).toBe(false);
    if (!r.success)
      expect(portforwardIssue(r.error.issues[0])).toEqual({
        field: 'forwardTypes',
        code: 'typesRequired',
        params: {},
        msg: 'choose at least one forwarding type',
      });
    const ports = portforwardRuleInputSchema.safeParse({ ...rule(), listenPorts: '80,90-85' });
    expect(ports.success ? undefined : portforwardIssue(ports.error.issues[0])).toEqual({
      field: 'listenPorts',
      code: 'portListInvalid',
      params: { token: '90-85' },
      msg: 'ports are a comma list of 1-65535 and ranges a-b with a < b (90-85)',
    });
    const big = portforwardRuleInputSchema.safeParse({ ...rule(), udpPacketSize: 65508 });
    if (!big.success)
      expect(portforwardIssue(big.error.issues[0])).toMatchObject({ code: 'tooBig', params: { max: 65507 } });
    expect(big.success).toBe(false);
  });
});

describe('settings patch', () => {
  it('takes any subset without filling the rest with defaults, and checks what it names', () => {
    expect(portforwardSettingsPatchSchema.parse({ ruleLimit: 3 })).toEqual({ ruleLimit: 3 });
    expect(portforwardSettingsPatchSchema.parse({})).toEqual({});
    const bad = portforwardSettingsPatchSchema.safeParse({ maxTcpConnections: 0 });
    expect(bad.success ? undefined : portforwardIssue(bad.error.issues[0])).toMatchObject({
      field: 'maxTcpConnections',
      code: 'tooSmall',
      params: { min: 1 },
    });
  });
});

describe('target addresses (shared net.ts)', () => {
  it('takes IPs and host names (labels with _ too, a trailing dot); not wildcards or bad IPv4', () => {
    for (const ok of ['192.168.1.2', 'fe80::1%eth0', 'nas.lan', 'my_nas', '_sip._udp.example.com', 'host.lan.'])
      expect(isTargetAddress(ok), ok).toBe(true);
    for (const bad of ['*.lan', '1.2.3', '300.1.1.1', 'a b', '-x.lan', '', 'x'.repeat(64)])
      expect(isTargetAddress(bad), bad).toBe(false);
  });
});

import { SECRET_MASK } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { issueText } from './errors';
import {
  checkAccessList,
  checkForwardLoop,
  checkForwardTypes,
  checkListenAddress,
  checkListenPorts,
  checkTargetAddresses,
  checkTargetPorts,
  checkTlsMode,
  checkTlsPair,
  checkWholeRule,
  formFieldOf,
  newRuleValues,
  panelOf,
  ruleToValues,
  speedUnitFor,
  toBytesPerSecond,
  toggleForwardType,
  valuesToInput,
  withToken,
} from './ruleForm';
import { ruleView } from './testData';

describe('forward types', () => {
  it('needs at least one; dual-stack and its 4/6 forms do not combine', () => {
    expect(checkForwardTypes([])?.code).toBe('typesRequired');
    expect(checkForwardTypes(undefined)?.code).toBe('typesRequired');
    expect(checkForwardTypes(['tcp', 'tcp6'])?.code).toBe('typesOverlap');
    expect(checkForwardTypes(['udp4', 'udp'])?.code).toBe('typesOverlap');
    expect(checkForwardTypes(['tcp', 'udp4', 'udp6'])).toBeUndefined();
  });

  it('ticking dual-stack clears the 4/6 forms of that protocol only, and back', () => {
    expect(toggleForwardType(['tcp4', 'tcp6', 'udp4'], 'tcp', true)).toEqual(['udp4', 'tcp']);
    expect(toggleForwardType(['tcp', 'udp'], 'tcp6', true)).toEqual(['tcp6', 'udp']);
    expect(toggleForwardType(['tcp6'], 'udp4', true)).toEqual(['tcp6', 'udp4']);
    expect(toggleForwardType(['tcp6', 'udp4'], 'tcp6', false)).toEqual(['udp4']);
  });
});

describe('addresses and ports', () => {
  it('listen address: empty (any) or an IP of the types family', () => {
    expect(checkListenAddress('', ['tcp4'])).toBeUndefined();
    expect(checkListenAddress('[::1]', ['tcp6'])).toBeUndefined();
    expect(checkListenAddress('192.168.1.300', ['tcp4'])?.code).toBe('listenAddressInvalid');
    expect(checkListenAddress('nas.lan', ['tcp'])?.code).toBe('listenAddressInvalid');
    expect(checkListenAddress('192.168.1.2', ['tcp6'])?.code).toBe('listenAddressFamily');
    expect(checkListenAddress('192.168.1.2', ['tcp', 'udp4'])).toBeUndefined();
  });

  it('listen ports: spec message when empty, the bad item named otherwise', () => {
    expect(checkListenPorts('  ')).toEqual({ code: 'listenPortsRequired' });
    expect(checkListenPorts('80,8080-8090')).toBeUndefined();
    expect(checkListenPorts('80,90-85')).toEqual({ code: 'portListInvalid', params: { token: '90-85' } });
    expect(checkListenPorts('70000')).toEqual({ code: 'portListInvalid', params: { token: '70000' } });
    expect(checkListenPorts('80,80')).toEqual({ code: 'portListDuplicate', params: { token: '80' } });
  });

  it('target ports: one, or as many as listen ports', () => {
    expect(checkTargetPorts('', '80')).toEqual({ code: 'targetPortsRequired' });
    expect(checkTargetPorts('8080', '80,81,82')).toBeUndefined();
    expect(checkTargetPorts('90-92', '80-82')).toBeUndefined();
    expect(checkTargetPorts('90,91', '80-82')).toEqual({ code: 'targetPortsCount', params: { count: 3 } });
    // The listen side reports its own problem; no count check against a bad list.
    expect(checkTargetPorts('90,91', 'x')).toBeUndefined();
  });

  it('target addresses: IPs or host names, at least one, at most 16', () => {
    expect(checkTargetAddresses([])).toEqual({ code: 'targetAddressRequired' });
    expect(checkTargetAddresses(['  '])).toEqual({ code: 'targetAddressRequired' });
    expect(checkTargetAddresses(['192.168.1.2', '[fd00::2]', 'nas.lan'])).toBeUndefined();
    expect(checkTargetAddresses(['nas.lan', 'bad host'])).toEqual({
      code: 'targetAddressInvalid',
      params: { token: 'bad host' },
    });
    expect(checkTargetAddresses(['1.2.3.999'])?.code).toBe('targetAddressInvalid');
    expect(checkTargetAddresses(Array.from({ length: 17 }, (_, i) => `10.0.0.${i + 1}`))?.code).toBe('tooBig');
  });

  it('refuses forwarding a port to itself', () => {
    const v = { forwardTypes: ['tcp4' as const], listenPorts: '8080', targetPorts: '8080' };
    expect(checkForwardLoop({ ...v, targetAddresses: ['127.0.0.1'] })).toEqual({
      code: 'forwardLoop',
      params: { port: 8080 },
    });
    expect(checkForwardLoop({ ...v, targetAddresses: ['127.0.0.1'], targetPorts: '80' })).toBeUndefined();
    // IPv6 in, IPv4 out on the same port is a bridge, not a loop.
    expect(checkForwardLoop({ ...v, forwardTypes: ['tcp6'], targetAddresses: ['127.0.0.1'] })).toBeUndefined();
  });

  it('access list: IPs and CIDRs; a whitelist needs one', () => {
    expect(checkAccessList('off', [])).toBeUndefined();
    expect(checkAccessList('whitelist', [])).toEqual({ code: 'accessListRequired' });
    expect(checkAccessList('blacklist', ['10.0.0.0/8', 'fd00::/8', '1.2.3.4'])).toBeUndefined();
    expect(checkAccessList('blacklist', ['10.0.0.0/33'])).toEqual({
      code: 'accessListInvalid',
      params: { token: '10.0.0.0/33' },
    });
  });

  it('TLS needs TCP; a certificate needs its key (a stored one reads as the mask), and the other way round', () => {
    expect(checkTlsMode('terminate', ['udp4'])?.code).toBe('tlsNeedsTcp');
    expect(checkTlsMode('none', ['udp4'])).toBeUndefined();
    const pair = { tlsMode: 'terminate' as const, tlsCert: 'CERT', tlsKey: '' };
    expect(checkTlsPair(pair)).toEqual({ field: 'tlsKey', code: 'tlsKeyRequired' });
    expect(checkTlsPair({ ...pair, tlsKey: SECRET_MASK })).toBeUndefined();
    expect(checkTlsPair({ ...pair, tlsCert: '', tlsKey: SECRET_MASK })).toEqual({
      field: 'tlsCert',
      code: 'tlsCertRequired',
    });
    expect(checkTlsPair({ ...pair, tlsCert: '', tlsKey: '' })).toBeUndefined();
  });
});

describe('values and the API', () => {
  it('a new rule is dual-stack TCP (IPv4 and IPv6 clients) with the schema defaults', () => {
    const v = newRuleValues();
    expect(v.forwardTypes).toEqual(['tcp']);
    expect(v).toMatchObject({ maxTcpConnections: 256, udpTimeoutMs: 30000, udpPacketSize: 1500, logLevel: 4 });
    expect(v).toMatchObject({ logCapacity: 1024, logShowLatest: 20, tlsMode: 'none', accessMode: 'off' });
  });

  it('sends trimmed values, no empty entries, types in their fixed order', () => {
    const input = valuesToInput({
      ...newRuleValues(),
      name: '  NAS  ',
      forwardTypes: ['udp4', 'tcp6'],
      listenAddress: ' [::1] ',
      listenPorts: ' 80 ',
      targetAddresses: [' 192.168.1.2 ', '', '[fd00::1]'],
      targetPorts: ' 8080 ',
      accessList: ['', '10.0.0.0/8 '],
    });
    expect(input).toMatchObject({
      name: 'NAS',
      forwardTypes: ['tcp6', 'udp4'],
      listenAddress: '::1',
      listenPorts: '80',
      targetAddresses: ['192.168.1.2', 'fd00::1'],
      targetPorts: '8080',
      accessList: ['10.0.0.0/8'],
    });
    // ::1 cannot take UDP over IPv4: the server's schema says so, with the field.
    expect(checkWholeRule(input)).toMatchObject({ field: 'listenAddress', code: 'listenAddressFamily' });
    expect(checkWholeRule({ ...input, forwardTypes: ['tcp6', 'udp6'] })).toBeUndefined();
  });

  it('the edit form takes the rule fields, not the live figures or the key', () => {
    const v = ruleToValues(ruleView({ bytesIn: 5, speedLimitIn: 1000 }));
    expect(v.speedLimitIn).toBe(1000);
    expect(v).not.toHaveProperty('bytesIn');
    expect(v).not.toHaveProperty('key');
    expect(v).not.toHaveProperty('proxies');
  });

  it('checks the whole rule with the server schema; a stored key is sent back as the mask', () => {
    const base = valuesToInput({
      ...newRuleValues(),
      listenPorts: '443',
      targetAddresses: ['10.0.0.2'],
      targetPorts: '80',
      tlsMode: 'terminate',
      tlsCert: 'CERT',
    });
    expect(checkWholeRule(base)).toMatchObject({ field: 'tlsKey', code: 'tlsKeyRequired' });
    expect(checkWholeRule({ ...base, tlsKey: SECRET_MASK })).toBeUndefined();
    expect(checkWholeRule({ ...base, tlsKey: SECRET_MASK, udpTimeoutMs: 5 })).toMatchObject({
      field: 'udpTimeoutMs',
      code: 'tooSmall',
      params: { min: 100 },
    });
  });

  it('maps server field paths to form items and panels, naming list entries', () => {
    expect(formFieldOf('targetAddresses.1')).toBe('targetAddresses');
    expect(formFieldOf('listenPorts')).toBe('listenPorts');
    expect(formFieldOf('key')).toBeUndefined();
    expect(formFieldOf('')).toBeUndefined();
    expect(panelOf('tlsCert')).toBe('tls');
    expect(panelOf('listenPorts')).toBeUndefined();
    const values = { ...newRuleValues(), targetAddresses: ['a.lan', 'b..lan'] };
    expect(withToken({ field: 'targetAddresses.1', code: 'targetAddressInvalid' }, values).params).toEqual({
      token: 'b..lan',
    });
  });
});

describe('speeds', () => {
  it('picks MB/s for whole megabytes, KB/s otherwise; converts in base 1000', () => {
    expect(speedUnitFor(0)).toBe('kb');
    expect(speedUnitFor(500_000)).toBe('kb');
    expect(speedUnitFor(2_000_000)).toBe('mb');
    expect(speedUnitFor(1_500_000)).toBe('mb');
    expect(speedUnitFor(1_500_001)).toBe('kb');
    expect(toBytesPerSecond(100, 'kb')).toBe(100_000);
    expect(toBytesPerSecond(1.5, 'mb')).toBe(1_500_000);
    expect(toBytesPerSecond(null, 'mb')).toBe(0);
    // Kept as typed for the form rule to refuse (not turned into "no limit").
    expect(toBytesPerSecond(-1, 'kb')).toBe(-1000);
  });
});

describe('messages', () => {
  const t = (key: string, vars?: Record<string, unknown>) => `${key}${vars ? JSON.stringify(vars) : ''}`;
  it('use the plain text when the bad entry is not known, and list allowed values', () => {
    expect(issueText(t, { code: 'portListInvalid' })).toMatch(/^portforward\.err_portListInvalidPlain/);
    expect(issueText(t, { code: 'portListInvalid', params: { token: 'x' } })).toMatch(
      /^portforward\.err_portListInvalid\{/,
    );
    expect(issueText(t, { code: 'invalidValue', params: { values: ['a', 'b'] } })).toContain('"values":"a, b"');
    expect(issueText(t, { code: 'portConflict', params: { protocol: 'udp' } })).toContain('"protocol":"UDP"');
  });
});

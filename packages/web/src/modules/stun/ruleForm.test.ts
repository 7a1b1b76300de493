import { stunRuleInputSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { checkRule, formFieldOf, newRuleValues, panelOf, ruleToValues, valuesToInput } from './ruleForm';
import { ruleView } from './testData';

describe('STUN rule form as data', () => {
  it('a new rule is the schema’s defaults, with empty name and target and the global fall-backs empty', () => {
    const v = newRuleValues();
    expect(v).toMatchObject({ name: '', targetAddress: '', targetPort: null, heartbeatSec: null, retrySec: null });
    const filled = valuesToInput({ ...v, name: 'x', targetAddress: '10.0.0.1', targetPort: 80 });
    expect(filled).toEqual(stunRuleInputSchema.parse(filled));
  });

  it('sends trimmed text, protocols in their order, no blank server lines, empty numbers as 0', () => {
    const input = valuesToInput({
      ...newRuleValues(),
      name: '  NAS ',
      protocols: ['udp', 'tcp'],
      targetAddress: ' nas.lan ',
      targetPort: 22,
      stunServers: [' stun.a.example:3478', '', '  ', 'stun.b.example '],
      heartbeatSec: null,
      retrySec: 20,
    });
    expect(input).toMatchObject({
      name: 'NAS',
      protocols: ['tcp', 'udp'],
      targetAddress: 'nas.lan',
      stunServers: ['stun.a.example:3478', 'stun.b.example'],
      heartbeatSec: 0,
      retrySec: 20,
    });
  });

  it('round-trips a listed rule without its key and live state', () => {
    const rule = ruleView({ heartbeatSec: 40 });
    const input = valuesToInput(ruleToValues(rule));
    expect(input).not.toHaveProperty('key');
    expect(input).not.toHaveProperty('mappings');
    expect(input.heartbeatSec).toBe(40);
    const { key: _key, state: _s, mappings: _m, lastLogs: _l, webhookHistory: _w, ...fields } = rule;
    expect(input).toEqual(fields);
  });

  it('checks with the schema and the other rules’ names (any case)', () => {
    const base = { ...newRuleValues(), name: 'Web', targetAddress: '10.0.0.1', targetPort: 80 };
    expect(checkRule(valuesToInput(base), ['nas'])).toEqual([]);
    expect(checkRule(valuesToInput(base), ['WEB'])).toEqual([
      { field: 'name', code: 'nameTaken', params: { name: 'WEB' } },
    ]);
    const bad = checkRule(valuesToInput({ ...base, channelMode: 'interface', heartbeatSec: 2 }));
    expect(bad.map((f) => [f.field, f.code])).toEqual([
      ['channelInterface', 'channelInterfaceRequired'],
      ['heartbeatSec', 'tooSmall'],
    ]);
  });

  it('finds the form item of a server path', () => {
    expect(formFieldOf('rules.3.name')).toEqual(['name']);
    expect(formFieldOf('stunServers.2')).toEqual(['stunServers']);
    expect(formFieldOf('webhook.headers.1')).toEqual(['webhook', 'headers']);
    expect(formFieldOf('webhook.proxy.address')).toEqual(['webhook', 'proxy', 'address']);
    expect(formFieldOf('port')).toEqual(['localPort']);
    expect(formFieldOf('key')).toBeUndefined();
    expect(panelOf('webhook')).toBe('notify');
    expect(panelOf('name')).toBeUndefined();
  });
});

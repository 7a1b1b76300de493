import { SECRET_MASK, wolDeviceInputSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import {
  checkDevice,
  deviceToValues,
  formFieldOf,
  macProblems,
  newDeviceValues,
  sectionOf,
  valuesToInput,
} from './deviceForm';
import { deviceView } from './testData';

const valid = () => ({ ...newDeviceValues(), name: 'NAS', macs: ['00:11:22:33:44:55'] });
const codes = (f: { field?: string; code?: string }[]) => f.map((x) => [x.field, x.code]);

describe('Wake-on-LAN device form as data', () => {
  it('a new device is the schema’s defaults: port 9, 3 repeats, the limited broadcast, no shutdown, no relay', () => {
    const v = newDeviceValues();
    expect(v).toMatchObject({ name: '', macs: [''], port: 9, repeat: 3, broadcast: '255.255.255.255', interface: '' });
    expect(v.check.tcpPort).toBeNull();
    expect(v.shutdown.method).toBe('none');
    expect(v.relay.enabled).toBe(false);
    const input = valuesToInput(valid());
    expect(input).toEqual(wolDeviceInputSchema.parse(input));
  });

  it('sends trimmed text, no blank MAC lines, an empty check port as 0', () => {
    const input = valuesToInput({
      ...valid(),
      name: '  gaming PC ',
      macs: [' 00:11:22:33:44:55', '', '  ', 'AA-BB-CC-DD-EE-FF '],
      check: { host: ' pc.lan ', tcpPort: null, ping: false },
    });
    expect(input).toMatchObject({
      name: 'gaming PC',
      macs: ['00:11:22:33:44:55', 'AA-BB-CC-DD-EE-FF'],
      check: { host: 'pc.lan', tcpPort: 0, ping: false },
    });
    expect(checkDevice(input)).toEqual([]);
  });

  it('checks the MAC list line by line with the server’s codes', () => {
    expect(macProblems(['00:11:22:33:44:55', 'aabb.ccdd.eeff'])).toEqual([]);
    expect(codes(macProblems([]))).toEqual([['macs', 'macRequired']]);
    expect(codes(macProblems(['', ' ']))).toEqual([['macs', 'macRequired']]);
    expect(macProblems(['00:11:22:33:44:55', '00:11:22:33:44'])).toEqual([
      { field: 'macs.1', code: 'macInvalid', params: { mac: '00:11:22:33:44' } },
    ]);
    // The same card written two ways is one MAC listed twice.
    expect(codes(macProblems(['00:11:22:33:44:55', '00-11-22-33-44-55']))).toEqual([['macs.1', 'macDuplicate']]);
  });

  it('refuses a taken name (any case), a bad broadcast, a SecureOn that is no 6 bytes', () => {
    expect(codes(checkDevice(valuesToInput({ ...valid(), name: 'nas' }), ['NAS', 'tv']))).toEqual([
      ['name', 'nameTaken'],
    ]);
    expect(checkDevice(valuesToInput({ ...valid(), name: 'nas' }), ['NAS'])[0].params).toEqual({ name: 'NAS' });
    expect(codes(checkDevice(valuesToInput({ ...valid(), broadcast: '192.168.1' })))).toEqual([
      ['broadcast', 'broadcastInvalid'],
    ]);
    expect(codes(checkDevice(valuesToInput({ ...valid(), secureOn: '1234' })))).toEqual([
      ['secureOn', 'secureOnInvalid'],
    ]);
    expect(checkDevice(valuesToInput({ ...valid(), secureOn: SECRET_MASK }))).toEqual([]);
  });

  it('asks for what the chosen shutdown method and the relay need, and nothing the others would', () => {
    const base = valid();
    const ssh = { ...base, shutdown: { ...base.shutdown, method: 'ssh' as const } };
    expect(codes(checkDevice(valuesToInput({ ...ssh, check: { ...ssh.check, host: '' } })))).toEqual([
      ['shutdown.ssh.host', 'sshHostRequired'],
      ['shutdown.ssh.user', 'sshUserRequired'],
      ['shutdown.ssh.privateKey', 'sshKeyRequired'],
    ]);
    const badKey = {
      ...ssh,
      shutdown: { ...ssh.shutdown, ssh: { ...ssh.shutdown.ssh, user: 'root', privateKey: 'hunter2' } },
    };
    expect(codes(checkDevice(valuesToInput({ ...badKey, check: { ...badKey.check, host: 'nas.lan' } })))).toEqual([
      ['shutdown.ssh.privateKey', 'sshKeyInvalid'],
    ]);
    // A stored key comes back as the mask and is fine.
    const kept = {
      ...badKey,
      shutdown: { ...badKey.shutdown, ssh: { ...badKey.shutdown.ssh, privateKey: SECRET_MASK } },
    };
    expect(checkDevice(valuesToInput({ ...kept, check: { ...kept.check, host: 'nas.lan' } }))).toEqual([]);
    const agent = { ...base, shutdown: { ...base.shutdown, method: 'agent' as const } };
    expect(codes(checkDevice(valuesToInput(agent)))).toEqual([
      ['shutdown.agent.url', 'agentUrlInvalid'],
      ['shutdown.agent.token', 'tokenRequired'],
    ]);
    expect(
      codes(checkDevice(valuesToInput({ ...base, relay: { enabled: true, url: 'http://10.1.0.2:16601', token: '' } }))),
    ).toEqual([['relay.token', 'tokenRequired']]);
    // Switched off, the relay's empty fields are no problem.
    expect(checkDevice(valuesToInput({ ...base, relay: { enabled: false, url: '', token: '' } }))).toEqual([]);
  });

  it('round-trips a listed device without its key and live state', () => {
    const d = deviceView({ secureOn: SECRET_MASK }, { online: 'online', via: ['tcp'] });
    const input = valuesToInput(deviceToValues(d));
    expect(input).not.toHaveProperty('key');
    expect(input).not.toHaveProperty('state');
    const { key: _k, state: _s, ...fields } = d;
    expect(input).toEqual(fields);
  });

  it('finds the dialog item and section of a server path', () => {
    expect(formFieldOf('macs.1')).toEqual(['macs']);
    expect(formFieldOf('devices.3.name')).toEqual(['name']);
    expect(formFieldOf('devices.0.shutdown.ssh.privateKey')).toEqual(['shutdown', 'ssh', 'privateKey']);
    expect(formFieldOf('relay.token')).toEqual(['relay', 'token']);
    expect(formFieldOf('key')).toBeUndefined();
    expect(formFieldOf('webhook.url')).toBeUndefined();
    expect(sectionOf(['secureOn'])).toBe('packet');
    expect(sectionOf(['shutdown', 'ssh', 'user'])).toBe('shutdown');
    expect(sectionOf(['name'])).toBeUndefined();
  });
});

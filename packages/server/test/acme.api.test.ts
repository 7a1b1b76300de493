// The ACME routes without a CA: refusals with their codes and fields, the account key made on the
// server and never read back, a new key type making a new key pair and a new registration, an
// account in use kept, actions while the module is off, the last state shown while it is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rp, startRp } from './reverseproxy-helpers.js';

let s: Rp;

beforeAll(async () => {
  s = await startRp();
});
afterAll(async () => {
  await s?.close();
});

const stored = () =>
  s.s.server.core.store.get().modules.acme as {
    accounts: { key: string; accountKeyPem: string; accountUrl: string }[];
  };

describe('ACME API', () => {
  let account: string;

  it('refuses what cannot be ordered, naming the field and a translated code', async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['/api/acme/accounts', { name: 'z', ca: 'zerossl' }, 'eab.kid', 'eabRequired'],
      [
        '/api/acme/accounts',
        { name: 'z', ca: 'custom', directoryUrl: 'http://ca.example/dir' },
        'directoryUrl',
        'directoryUrlInvalid',
      ],
      [
        '/api/acme/accounts',
        { name: 'z', ca: 'custom', directoryUrl: 'https://ca.example/dir', caCertPem: 'nope' },
        'caCertPem',
        'caCertInvalid',
      ],
    ];
    for (const [path, body, field, code] of cases) {
      const r = await s.call('POST', path, body);
      expect([r.status, r.body.field, r.body.code], JSON.stringify(r.body)).toEqual([400, field, code]);
    }
    const a = await s.call('POST', '/api/acme/accounts', {
      name: 'lab',
      ca: 'custom',
      directoryUrl: 'https://127.0.0.1:1/dir',
    });
    expect(a.body.ret, JSON.stringify(a.body)).toBe(0);
    account = a.body.account.key;
    const certCases: [Record<string, unknown>, string, string][] = [
      [{ names: ['*.home.test'] }, 'names.0', 'wildcardNeedsDns'],
      [{ names: ['192.0.2.1'], challenge: 'dns-01' }, 'names.0', 'ipNeedsHttp'],
      [{ names: ['a.test', 'a.test'] }, 'names.1', 'domainDuplicate'],
      [{ names: ['not a name'] }, 'names.0', 'domainInvalid'],
      [{ names: [] }, 'names', 'namesRequired'],
      [{ names: ['a.test'], account: 'Nope' }, 'account', 'accountUnknown'],
      [
        { names: ['a.test'], challenge: 'dns-01', dns: { provider: 'powerdns', nameservers: ['ns.example'] } },
        'dns.nameservers.0',
        'nameserverInvalid',
      ],
      [{ names: ['a.test'], export: { enabled: true, dir: 'relative' } }, 'export.dir', 'exportDirInvalid'],
      [
        { names: ['a.test'], export: { enabled: true, dir: '/x', keyMode: '999' } },
        'export.keyMode',
        'fileModeInvalid',
      ],
    ];
    for (const [body, field, code] of certCases) {
      const r = await s.call('POST', '/api/acme/certificates', { name: 'c', account, enabled: false, ...body });
      expect([r.status, r.body.field, r.body.code], JSON.stringify(r.body)).toEqual([400, field, code]);
    }
  });

  it('makes the account key on the server, never reads it back; a new key type makes a new one and a new registration', async () => {
    const before = stored().accounts.find((a) => a.key === account);
    expect(before?.accountKeyPem).toContain('PRIVATE KEY');
    const view = await s.call('GET', '/api/acme/accounts');
    expect(JSON.stringify(view.body)).not.toContain('PRIVATE KEY');
    expect(view.body.list[0]).not.toHaveProperty('accountKeyPem');
    // Pretend it registered, then change the key type.
    const acme = structuredClone(s.s.server.core.store.get().modules.acme) as { accounts: { accountUrl: string }[] };
    acme.accounts[0].accountUrl = 'https://127.0.0.1:1/acct/7';
    await s.s.server.core.modules.saveConfig('acme', acme);
    const put = await s.call('PUT', `/api/acme/accounts/${account}`, {
      name: 'lab',
      ca: 'custom',
      directoryUrl: 'https://127.0.0.1:1/dir',
      keyType: 'rsa2048',
    });
    expect(put.body.ret, JSON.stringify(put.body)).toBe(0);
    expect(put.body.account.registered).toBe(false);
    const after = stored().accounts.find((a) => a.key === account);
    expect(after?.accountKeyPem).not.toBe(before?.accountKeyPem);
    expect(after?.accountUrl).toBe('');
  });

  it('keeps an account a certificate uses; issue and revoke need the module on', async () => {
    const c = await s.call('POST', '/api/acme/certificates', {
      name: 'kept',
      account,
      names: ['kept.test'],
      enabled: false,
    });
    expect(c.body.ret, JSON.stringify(c.body)).toBe(0);
    expect(c.body.certificate.status.state).toBe('disabled');
    const del = await s.call('DELETE', `/api/acme/accounts/${account}`);
    expect([del.status, del.body.code, del.body.params]).toEqual([409, 'accountInUse', { names: 'kept' }]);
    expect((await s.call('PUT', '/api/modules/acme/enabled', { enabled: false })).body.ret).toBe(0);
    const issue = await s.call('POST', `/api/acme/certificates/${c.body.certificate.key}/issue`, {});
    expect([issue.status, issue.body.code]).toEqual([409, 'moduleDisabled']);
    const list = await s.call('GET', '/api/acme');
    expect(list.body.enabled).toBe(false);
    expect(list.body.certificates[0].status.state).toBe('disabled');
    expect(list.body.dnsProviders).toEqual(expect.arrayContaining(['powerdns', 'rfc2136', 'cloudflare']));
    expect(list.body.dnsProviders).not.toContain('callback');
  });
});

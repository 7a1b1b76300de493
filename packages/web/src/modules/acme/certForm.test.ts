import { describe, expect, it } from 'vitest';
import { checkCert, formFieldOf, nameProblems, newCertValues, valuesToCert } from './certForm';

const input = (over: Partial<ReturnType<typeof newCertValues>> = {}) =>
  valuesToCert({ ...newCertValues('Acct1'), name: 'home', names: ['home.example.com'], ...over });

describe('certificate form rules', () => {
  it('accepts a plain name by HTTP-01 and a wildcard with its apex by DNS-01', () => {
    expect(checkCert(input())).toEqual([]);
    expect(checkCert(input({ challenge: 'dns-01', names: ['example.com', '*.example.com'] }))).toEqual([]);
    expect(checkCert(input({ names: ['192.0.2.7'] }))).toEqual([]);
  });

  it('refuses a wildcard by HTTP-01 on the name at fault, naming it', () => {
    expect(nameProblems(['example.com', '*.example.com'], 'http-01')).toEqual([
      { field: 'names.1', code: 'wildcardNeedsDns', params: { name: '*.example.com' } },
    ]);
  });

  it('refuses an IP address by DNS-01', () => {
    expect(nameProblems(['192.0.2.7'], 'dns-01')).toEqual([
      { field: 'names.0', code: 'ipNeedsHttp', params: { name: '192.0.2.7' } },
    ]);
  });

  it('names bad, doubled and missing names', () => {
    expect(nameProblems([], 'http-01')).toEqual([{ field: 'names', code: 'namesRequired', params: {} }]);
    expect(nameProblems(['ok.example.com', 'no_dots', '*.*.example.com', 'ok.example.com'], 'dns-01')).toEqual([
      { field: 'names.1', code: 'domainInvalid', params: { name: 'no_dots' } },
      { field: 'names.2', code: 'domainInvalid', params: { name: '*.*.example.com' } },
      { field: 'names.3', code: 'domainDuplicate', params: { name: 'ok.example.com' } },
    ]);
  });

  it('sends names lower-cased and trimmed, and checks the schema too (name, account, export folder)', () => {
    expect(input({ names: [' Home.Example.COM ', ''] }).names).toEqual(['home.example.com']);
    const problems = checkCert(
      input({ name: ' ', account: '', export: { enabled: true, dir: 'rel/dir', certMode: '644', keyMode: '9' } }),
    );
    expect(problems.map((p) => `${p.field}:${p.code}`)).toEqual(
      expect.arrayContaining([
        'name:nameRequired',
        'account:accountRequired',
        'export.keyMode:fileModeInvalid',
        'export.dir:exportDirInvalid',
      ]),
    );
  });

  it('puts a list entry on its list box', () => {
    expect(formFieldOf('names.3')).toEqual(['names']);
    expect(formFieldOf('dns.nameservers.0')).toEqual(['dns', 'nameservers']);
    expect(formFieldOf('webhook.url')).toEqual(['webhook', 'url']);
  });
});

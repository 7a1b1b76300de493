import { ACME_CA_INFO, SECRET_MASK } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { checkAccount, directoryOf, eabNeed, newAccountValues, valuesToAccount } from './accountForm';

const input = (over: Partial<ReturnType<typeof newAccountValues>> = {}) =>
  valuesToAccount({ ...newAccountValues(), name: 'main', ...over });
const codes = (over: Partial<ReturnType<typeof newAccountValues>>) =>
  checkAccount(input(over)).map((p) => `${p.field}:${p.code}`);

describe('account form rules', () => {
  it('requires both EAB values for the CAs that need them, and only there', () => {
    expect(eabNeed('zerossl')).toBe('required');
    expect(eabNeed('letsencrypt')).toBe('none');
    expect(eabNeed('custom')).toBe('optional');
    expect(codes({ ca: 'zerossl' })).toEqual(['eab.kid:eabRequired', 'eab.hmacKey:eabRequired']);
    expect(codes({ ca: 'google', eab: { kid: 'kid-1', hmacKey: '' } })).toEqual(['eab.hmacKey:eabRequired']);
    expect(codes({ ca: 'zerossl', eab: { kid: 'kid-1', hmacKey: 'abc_DEF-123' } })).toEqual([]);
    // A saved key comes back masked and is kept.
    expect(codes({ ca: 'zerossl', eab: { kid: 'kid-1', hmacKey: SECRET_MASK } })).toEqual([]);
  });

  it('lets a custom CA go without EAB, but not with half of it', () => {
    const custom = { ca: 'custom' as const, directoryUrl: 'https://127.0.0.1:14000/dir' };
    expect(codes(custom)).toEqual([]);
    expect(codes({ ...custom, eab: { kid: 'k', hmacKey: '' } })).toEqual(['eab.hmacKey:eabRequired']);
  });

  it('refuses an HMAC key that is not base64url', () => {
    expect(codes({ ca: 'zerossl', eab: { kid: 'k', hmacKey: 'not base64!' } })).toEqual(['eab.hmacKey:eabKeyInvalid']);
  });

  it('wants an https directory for a custom CA (http only on this machine)', () => {
    expect(codes({ ca: 'custom', directoryUrl: '' })).toEqual(['directoryUrl:directoryUrlInvalid']);
    expect(codes({ ca: 'custom', directoryUrl: 'http://ca.example.com/dir' })).toEqual([
      'directoryUrl:directoryUrlInvalid',
    ]);
    expect(codes({ ca: 'custom', directoryUrl: 'http://localhost:4001/dir' })).toEqual([]);
  });

  it('sends no directory or EAB a named CA does not use, and shows the named directory', () => {
    const sent = input({ ca: 'letsencrypt', directoryUrl: 'https://x.example/dir', eab: { kid: 'k', hmacKey: 'h' } });
    expect(sent.directoryUrl).toBe('');
    expect(sent.eab).toEqual({ kid: '', hmacKey: '' });
    expect(directoryOf('zerossl', '')).toBe(ACME_CA_INFO.zerossl.directory);
    expect(directoryOf('custom', ' https://ca.lan/dir ')).toBe('https://ca.lan/dir');
  });

  it('refuses text that is not a PEM certificate as the CA certificate', () => {
    expect(codes({ caCertPem: 'hello' })).toEqual(['caCertPem:caCertInvalid']);
  });
});

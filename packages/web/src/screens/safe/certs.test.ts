import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import {
  addIssue,
  certValidity,
  chainNames,
  checkCertPem,
  checkKeyPem,
  formatFingerprint,
  shortFingerprint,
  splitBundle,
} from './certs';
import { CERT_PEM, certView, EC_KEY_PEM, ENCRYPTED_KEY_PEM, FP, KEY_PEM } from './certTestData';

const t = (key: string) => key;
const DAY = 86_400_000;

describe('certificate validity', () => {
  it('counts whole days left and flags the last 30 days', () => {
    expect(certValidity(certView({ untilDays: 90.5 }))).toMatchObject({ state: 'valid', daysLeft: 90 });
    expect(certValidity(certView({ untilDays: 30.2 }))).toMatchObject({ state: 'valid', daysLeft: 30 });
    expect(certValidity(certView({ untilDays: 29.9 }))).toMatchObject({ state: 'soon', daysLeft: 29 });
    expect(certValidity(certView({ untilDays: 0.5 }))).toMatchObject({ state: 'soon', daysLeft: 0 });
  });

  it('expired, not yet valid, and a stored PEM that does not parse', () => {
    expect(certValidity(certView({ untilDays: -2.5 }))).toMatchObject({ state: 'expired', daysLeft: -3 });
    expect(certValidity(certView({ fromDays: 2, untilDays: 92 }))).toMatchObject({ state: 'notYetValid' });
    expect(certValidity({ ...certView(), CertsInfo: [], Expired: true })).toEqual({ state: 'unreadable' });
    // The server's clock says expired (e.g. the browser's clock is behind): believe it.
    expect(certValidity({ ...certView({ untilDays: 5 }), Expired: true }).state).toBe('expired');
  });

  it('takes the reference time', () => {
    const c = certView({ untilDays: 40 });
    expect(certValidity(c, Date.now() + 20 * DAY).state).toBe('soon');
  });
});

describe('chain and fingerprint', () => {
  it('names the intermediates (who issued the leaf)', () => {
    const c = certView();
    expect(chainNames(c)).toEqual([]);
    c.CertsInfo.push({ Domains: ['r3'], NotBeforeTime: '', NotAfterTime: '' });
    c.CertsInfo.push({ Domains: [], NotBeforeTime: '', NotAfterTime: '' });
    expect(chainNames(c)).toEqual(['r3']);
  });

  it('shortens the sha256 and formats it as tools print it', () => {
    expect(shortFingerprint(FP)).toBe('AB:12:CD:34…CD:9F');
    expect(formatFingerprint(FP)).toMatch(/^AB:12:CD:34:(?:[0-9A-F]{2}:){26}CD:9F$/);
    expect(shortFingerprint('')).toBe('');
  });
});

describe('PEM checks', () => {
  it('a certificate box needs a certificate block', () => {
    expect(checkCertPem(CERT_PEM)).toBeUndefined();
    expect(checkCertPem(`${CERT_PEM}\n${CERT_PEM}`)).toBeUndefined();
    expect(checkCertPem('  ')).toBe('required');
    expect(checkCertPem('hello')).toBe('notPem');
    expect(checkCertPem('-----BEGIN CERTIFICATE-----\nMIIB')).toBe('notPem');
    expect(checkCertPem(KEY_PEM)).toBe('wrongKind');
  });

  it('a key box needs an unencrypted private key', () => {
    expect(checkKeyPem(KEY_PEM)).toBeUndefined();
    expect(checkKeyPem(EC_KEY_PEM)).toBeUndefined();
    expect(
      checkKeyPem(`-----BEGIN EC PARAMETERS-----\nBggq\n-----END EC PARAMETERS-----\n${EC_KEY_PEM}`),
    ).toBeUndefined();
    expect(checkKeyPem('')).toBe('required');
    expect(checkKeyPem('hello')).toBe('notPem');
    expect(checkKeyPem(CERT_PEM)).toBe('wrongKind');
    expect(checkKeyPem(ENCRYPTED_KEY_PEM)).toBe('encrypted');
    expect(
      checkKeyPem(
        '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nabc\n-----END RSA PRIVATE KEY-----',
      ),
    ).toBe('encrypted');
  });

  it('splits a file holding both the chain and the key', () => {
    expect(splitBundle(`${CERT_PEM}\n${KEY_PEM}\n${CERT_PEM}`)).toEqual({
      cert: `${CERT_PEM}\n${CERT_PEM}`,
      key: KEY_PEM,
    });
    expect(splitBundle(CERT_PEM)).toBeUndefined();
    expect(splitBundle(KEY_PEM)).toBeUndefined();
  });
});

describe('refused adds', () => {
  const refusal = (status: number, reply: Record<string, unknown>) =>
    new ApiError('ret', String(reply.msg), { status, ret: 2, reply: { ret: 2, ...reply } });

  it('lands on the field the server names, told apart by its message', () => {
    expect(
      addIssue(
        refusal(400, {
          code: 'certInvalid',
          field: 'KeyBase64',
          msg: 'the private key does not belong to the certificate',
        }),
        t,
      ),
    ).toEqual({ field: 'key', text: 'safe.certErrKeyMismatch' });
    expect(
      addIssue(refusal(400, { code: 'certInvalid', field: 'KeyBase64', msg: 'private key does not parse: x' }), t),
    ).toEqual({ field: 'key', text: 'safe.certErrKeyInvalid' });
    expect(
      addIssue(refusal(400, { code: 'certInvalid', field: 'CertBase64', msg: 'no PEM certificate found' }), t),
    ).toEqual({
      field: 'cert',
      text: 'safe.certErrCertInvalid',
    });
    expect(addIssue(refusal(409, { code: 'certDuplicate', field: 'CertBase64', msg: 'already stored' }), t)).toEqual({
      field: 'cert',
      text: 'safe.certErrDuplicate',
    });
    // Schema refusals (ret 1, no code) name the field too.
    expect(addIssue(refusal(400, { field: 'KeyBase64', msg: 'KeyBase64: private key is required' }), t)).toEqual({
      field: 'key',
      text: 'safe.certKeyRequired',
    });
  });

  it('leaves other failures to the caller', () => {
    expect(addIssue(refusal(400, { field: 'Remark', msg: 'too long' }), t)).toBeUndefined();
    expect(addIssue(new ApiError('timeout', 'timed out'), t)).toBeUndefined();
    expect(addIssue(new Error('x'), t)).toBeUndefined();
  });
});

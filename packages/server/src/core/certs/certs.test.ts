import { describe, expect, it } from 'vitest';
import { makeCert } from '../../../test/certs-helpers.js';
import { CertError, parseCertPair, pemFromInput } from './parse.js';
import { CertResolver } from './resolver.js';
import type { CertStore, LoadedCert } from './store.js';

describe('parseCertPair', () => {
  it('reads domains from the SAN, validity, and checks the key', async () => {
    const a = await makeCert(['a.example.com', '*.a.example.com']);
    const p = parseCertPair(a.cert, a.key);
    expect(p.chain[0].domains).toEqual(['a.example.com', '*.a.example.com']);
    expect(Date.parse(p.chain[0].notAfter)).toBeGreaterThan(Date.now());
    expect(p.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('falls back to the CN without a SAN', async () => {
    const a = await makeCert([], { cn: 'Only.Cn.Example', san: false });
    expect(parseCertPair(a.cert, a.key).chain[0].domains).toEqual(['only.cn.example']);
  });

  it('refuses a key of another certificate, garbage, and a missing certificate', async () => {
    const a = await makeCert(['a.test']);
    const b = await makeCert(['b.test']);
    expect(() => parseCertPair(a.cert, b.key)).toThrow(CertError);
    expect(() => parseCertPair(a.cert, 'nope')).toThrow(/private key/);
    expect(() => parseCertPair('nope', a.key)).toThrow(/no PEM certificate/);
  });

  it('accepts base64 of the PEM or the PEM itself', async () => {
    const a = await makeCert(['a.test']);
    expect(pemFromInput(Buffer.from(a.cert).toString('base64'))).toBe(a.cert.trim());
    expect(pemFromInput(a.cert)).toBe(a.cert.trim());
  });

  it('takes PEM text with lines before the first block (openssl pkcs12 -nodes output)', async () => {
    const a = await makeCert(['a.test']);
    const bundle = `Bag Attributes\n    localKeyID: 01 02\nsubject=CN = a.test\nissuer=CN = a.test\n${a.cert}\nBag Attributes\n${a.key}`;
    expect(pemFromInput(bundle)).toBe(bundle.trim());
    const p = parseCertPair(pemFromInput(bundle), pemFromInput(bundle));
    expect(p.chain[0].domains).toEqual(['a.test']);
  });
});

function fakeStore(list: LoadedCert[]): CertStore {
  return { loaded: () => list, onChange: () => () => {} } as unknown as CertStore;
}

async function loaded(key: string, names: string[], days = 90, enable = true): Promise<LoadedCert> {
  const c = await makeCert(names, { notAfter: new Date(Date.now() + days * 86400_000) });
  const parsed = parseCertPair(c.cert, c.key);
  return {
    record: { key, enable, remark: '', certPem: c.cert, keyPem: c.key, addTime: '' },
    parsed,
    leaf: parsed.chain[0],
  };
}

describe('CertResolver', () => {
  it('exact name, then one-level wildcard, then the default', async () => {
    const exact = await loaded('exact', ['www.example.com']);
    const wild = await loaded('wild', ['*.example.com'], 30);
    const r = new CertResolver(fakeStore([exact, wild]));
    expect(r.pick('www.example.com')?.record.key).toBe('exact');
    expect(r.pick('WWW.Example.com.')?.record.key).toBe('exact');
    expect(r.pick('api.example.com')?.record.key).toBe('wild');
    // Two levels below the wildcard: not covered, the default answers.
    expect(r.pick('a.b.example.com')?.record.key).toBe('exact');
    expect(r.pick(undefined)?.record.key).toBe('exact');
    expect(r.contextFor('api.example.com')).toBeDefined();
  });

  it('prefers the valid certificate that expires last; skips disabled ones', async () => {
    const old = await loaded('old', ['x.test'], 10);
    const renewed = await loaded('new', ['x.test'], 80);
    const off = await loaded('off', ['x.test'], 300, false);
    expect(new CertResolver(fakeStore([old, renewed, off])).pick('x.test')?.record.key).toBe('new');
    expect(new CertResolver(fakeStore([])).pick('x.test')).toBeUndefined();
  });
});

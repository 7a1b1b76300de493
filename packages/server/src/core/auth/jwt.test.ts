import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from './jwt.js';

const secret = new Uint8Array(Buffer.from('0123456789abcdef0123456789abcdef'));
const now = 1_800_000_000_000;
const claims = { sub: '666', sid: 'abc', iat: now / 1000, exp: now / 1000 + 3600 };

describe('HS256 JWT', () => {
  it('round-trips and is a standard HS256 token another implementation can verify', () => {
    const token = signJwt(claims, secret);
    expect(verifyJwt(token, secret, now)).toEqual(claims);
    const [h, p, sig] = token.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(sig).toBe(createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url'));
  });

  it('refuses another secret, a changed payload, alg none, expiry and garbage', () => {
    const token = signJwt(claims, secret);
    const [h, p, s] = token.split('.');
    expect(verifyJwt(token, new Uint8Array(32), now)).toBeUndefined();
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    expect(verifyJwt(`${h}.${forged}.${s}`, secret, now)).toBeUndefined();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyJwt(`${none}.${p}.`, secret, now)).toBeUndefined();
    expect(verifyJwt(`${none}.${p}.${s}`, secret, now)).toBeUndefined();
    expect(verifyJwt(token, secret, (claims.exp + 1) * 1000)).toBeUndefined();
    for (const junk of ['', 'a.b', 'a.b.c.d', `${h}.%%%.${s}`]) expect(verifyJwt(junk, secret, now)).toBeUndefined();
  });
});

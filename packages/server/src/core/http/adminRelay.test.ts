import { afterEach, describe, expect, it } from 'vitest';
import { adminRelay, isAdminTarget, isLocalAddress, relayedClient, relayValue, setAdminRelay } from './adminRelay.js';

afterEach(() => {
  setAdminRelay(undefined);
});

const target = (url: string) => {
  const u = new URL(url);
  return { origin: u.origin, hostPort: u.host };
};

describe('admin relay', () => {
  it('makes a fresh 32-byte secret per call, or takes the one given (helpers)', () => {
    const a = setAdminRelay({ port: 16601 });
    const b = setAdminRelay({ port: 16601 });
    expect(a?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b?.secret).not.toBe(a?.secret);
    expect(setAdminRelay({ port: 1, secret: 'given' })?.secret).toBe('given');
  });

  it('recognises only our admin port on a local address', () => {
    setAdminRelay({ port: 16601 });
    expect(isAdminTarget(target('http://127.0.0.1:16601'))).toBe(true);
    expect(isAdminTarget(target('https://localhost:16601'))).toBe(true);
    expect(isAdminTarget(target('http://[::1]:16601'))).toBe(true);
    expect(isAdminTarget(target('http://127.0.0.1:16602'))).toBe(false);
    expect(isAdminTarget(target('http://203.0.113.7:16601'))).toBe(false);
    expect(isAdminTarget(target('http://nas.example:16601'))).toBe(false);
    setAdminRelay(undefined);
    expect(isAdminTarget(target('http://127.0.0.1:16601'))).toBe(false);
  });

  it('handles an admin on a default port', () => {
    setAdminRelay({ port: 80 });
    expect(isAdminTarget(target('http://127.0.0.1'))).toBe(true);
    expect(isAdminTarget(target('https://127.0.0.1'))).toBe(false);
  });

  it('believes a header only with our secret from a local peer', () => {
    setAdminRelay({ port: 16601 });
    const value = relayValue('198.51.100.2', 'console.example.com');
    expect(value.startsWith(`${adminRelay()?.secret} `)).toBe(true);
    expect(relayedClient(value, '127.0.0.1')).toEqual({ ip: '198.51.100.2', host: 'console.example.com' });
    expect(relayedClient(value, '::ffff:127.0.0.1')?.ip).toBe('198.51.100.2');
    // From a peer that is not this machine: ignored even with the right secret.
    expect(relayedClient(value, '198.51.100.9')).toBeUndefined();
    // Wrong, short or missing secrets; junk addresses.
    expect(
      relayedClient(
        value.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        '127.0.0.1',
      ),
    ).toBeUndefined();
    expect(relayedClient('x 192.168.1.1', '127.0.0.1')).toBeUndefined();
    expect(relayedClient('192.168.1.1', '127.0.0.1')).toBeUndefined();
    expect(relayedClient(`${adminRelay()?.secret} not-an-ip host`, '127.0.0.1')).toBeUndefined();
    expect(relayedClient([value, value], '127.0.0.1')).toBeUndefined();
    expect(relayedClient(undefined, '127.0.0.1')).toBeUndefined();
    // After a restart (new secret) an old value is worthless.
    setAdminRelay({ port: 16601 });
    expect(relayedClient(value, '127.0.0.1')).toBeUndefined();
  });

  it('knows local addresses', () => {
    expect(isLocalAddress('127.0.0.1')).toBe(true);
    expect(isLocalAddress('::1')).toBe(true);
    expect(isLocalAddress('0.0.0.0')).toBe(true);
    expect(isLocalAddress('203.0.113.7')).toBe(false);
    expect(isLocalAddress('localhost')).toBe(false);
  });
});

// The server list: entries parsed with coded refusals, names resolved to IPv4, fail-over in order
// with every failure kept.
import { describe, expect, it } from 'vitest';
import { StunError } from './errors.js';
import { AllServersFailed, parseServer, resolveServer, withFailover } from './servers.js';

describe('parseServer', () => {
  it('host[:port] with 3478 by default; IPv4 literals and DNS names', () => {
    expect(parseServer('stun.example.org')).toEqual({ text: 'stun.example.org', host: 'stun.example.org', port: 3478 });
    expect(parseServer(' 192.0.2.1:19302 ')).toEqual({ text: '192.0.2.1:19302', host: '192.0.2.1', port: 19302 });
    expect(parseServer('my_stun.lan.')).toMatchObject({ host: 'my_stun.lan', port: 3478 });
  });

  it('refuses IPv6 with its own code, and everything else that is not host[:port]', () => {
    for (const v6 of ['2001:db8::1', '[2001:db8::1]:3478', '::1']) {
      expect(() => parseServer(v6)).toThrow(expect.objectContaining({ code: 'ipv6NotSupported' }));
    }
    for (const bad of [
      '',
      ' ',
      'host:',
      'host:0',
      'host:65536',
      'host:abc',
      '300.1.1.1',
      '1.2.3',
      'a b',
      'http://x',
      '-x.org',
      'x:1:2',
    ]) {
      const e = (() => {
        try {
          parseServer(bad);
        } catch (err) {
          return err;
        }
      })();
      expect(e, bad).toBeInstanceOf(StunError);
      expect((e as StunError).code, bad).toBe('badServer');
    }
  });
});

describe('resolveServer', () => {
  it('an IPv4 literal needs no lookup; a name goes through lookup with family 4', async () => {
    const asked: unknown[] = [];
    const lookup = async (host: string, opts: { family: 4 }) => {
      asked.push([host, opts]);
      return { address: '192.0.2.9' };
    };
    expect(await resolveServer('192.0.2.1', lookup)).toMatchObject({ address: '192.0.2.1', port: 3478 });
    expect(asked).toEqual([]);
    expect(await resolveServer('stun.example.org:1', lookup)).toEqual({
      text: 'stun.example.org:1',
      host: 'stun.example.org',
      port: 1,
      address: '192.0.2.9',
    });
    expect(asked).toEqual([['stun.example.org', { family: 4 }]]);
  });

  it('the system resolver (localhost from /etc/hosts); a failed lookup is resolveFailed', async () => {
    expect((await resolveServer('localhost')).address).toBe('127.0.0.1');
    const failing = async () => {
      throw Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(resolveServer('nowhere.invalid', failing)).rejects.toMatchObject({
      code: 'resolveFailed',
      params: { server: 'nowhere.invalid', host: 'nowhere.invalid', error: 'ENOTFOUND' },
    });
  });
});

describe('withFailover', () => {
  it('returns the first success with the failures before it, in order', async () => {
    const tried: string[] = [];
    const r = await withFailover(['bad entry', '192.0.2.1', '192.0.2.2:5000', '192.0.2.3'], async (s) => {
      tried.push(`${s.address}:${s.port}`);
      if (s.address === '192.0.2.1') throw new StunError('timeout', 'no STUN answer from 192.0.2.1:3478');
      return 'ok';
    });
    expect(tried).toEqual(['192.0.2.1:3478', '192.0.2.2:5000']);
    expect(r.result).toBe('ok');
    expect(r.server).toMatchObject({ text: '192.0.2.2:5000', address: '192.0.2.2', port: 5000 });
    expect(r.errors.map((e) => [e.server, e.error.code])).toEqual([
      ['bad entry', 'badServer'],
      ['192.0.2.1', 'timeout'],
    ]);
  });

  it('all failing: allServersFailed lists each server with its code; a plain Error becomes "failed"', async () => {
    const e = await withFailover(['192.0.2.1', '192.0.2.2'], async (s) => {
      if (s.address === '192.0.2.1') throw new Error('boom');
      throw new StunError('errorResponse', 'the STUN server answered error 500', { status: 500, reason: '' });
    }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AllServersFailed);
    const all = e as AllServersFailed;
    expect(all.code).toBe('allServersFailed');
    expect(all.params.errors).toEqual([
      { server: '192.0.2.1', code: 'failed', message: 'boom' },
      { server: '192.0.2.2', code: 'errorResponse', message: 'the STUN server answered error 500' },
    ]);
    expect(all.errors).toHaveLength(2);
  });

  it('an empty list and an abort', async () => {
    await expect(withFailover([], async () => 1)).rejects.toMatchObject({ code: 'noServers' });
    const ac = new AbortController();
    let calls = 0;
    await expect(
      withFailover(['192.0.2.1', '192.0.2.2'], async () => {
        calls++;
        ac.abort();
        throw new StunError('aborted', 'the STUN request was cancelled');
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(calls).toBe(1);
    await expect(withFailover(['192.0.2.1'], async () => 1, { signal: ac.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});

import { reverseproxyDefaultRuleSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { StreamRequest } from '../../core/serve/h2/stream.js';
import type { ServeRequest } from '../../core/serve/request.js';
import { bodyFraming, type ProxyContext, responseHeadersOf, upstreamHeaders } from './proxy.js';
import type { Target } from './targets.js';

const raw = (...pairs: string[]) => pairs;

describe('responseHeadersOf', () => {
  it('lower-cases names and keeps repeated headers (Set-Cookie) as lists', () => {
    const h = responseHeadersOf(
      raw('Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'X-A', 'é'),
    );
    expect(h).toEqual({ 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'], 'x-a': 'é' });
  });

  it('drops hop-by-hop headers and those the Connection headers name', () => {
    const h = responseHeadersOf(
      raw(
        'X-Secret-Hop',
        '1',
        'Connection',
        'keep-alive, X-Secret-Hop',
        'Keep-Alive',
        'timeout=5',
        'Transfer-Encoding',
        'chunked',
        'ETag',
        '"x"',
        // A second Connection header names another one.
        'Connection',
        'X-Other-Hop',
        'X-Other-Hop',
        '2',
      ),
    );
    expect(h).toEqual({ etag: '"x"' });
  });
});

describe('Connection cannot remove what the message depends on', () => {
  it('keeps Content-Length, Transfer-Encoding, Host, Upgrade and forwarded fields in an answer', () => {
    const h = responseHeadersOf(raw('Connection', 'Content-Length, X-Hop', 'Content-Length', '5', 'X-Hop', '1'));
    expect(h).toEqual({ 'content-length': '5' });
  });

  it('towards the back end: only extension fields go; framing is never passed, the proxy states it', () => {
    const service = reverseproxyDefaultRuleSchema.parse({
      clientIp: { fromHeaders: true, trustedProxies: ['10.0.0.1'], addForwardedHeaders: true },
    });
    const ctx = {
      service,
      peer: '10.0.0.1',
      clientIp: '192.0.2.7',
      scheme: 'https',
      host: 'site.test',
    } as ProxyContext;
    const target = { origin: 'http://b:80', basePath: '', hostPort: 'b:80' } as Target;
    const h = upstreamHeaders(
      {
        headers: {
          connection: 'Content-Length, Transfer-Encoding, Host, Upgrade, X-Forwarded-For, X-Real-IP, X-Hop',
          'content-length': '36',
          'transfer-encoding': 'chunked',
          'x-forwarded-for': '192.0.2.7',
          'x-hop': '1',
          'x-kept': '2',
        },
      },
      ctx,
      target,
    );
    expect(h).toEqual({
      'x-kept': '2',
      'x-forwarded-for': '192.0.2.7, 10.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'site.test',
      'x-real-ip': '192.0.2.7',
      host: 'site.test',
    });
  });
});

describe('bodyFraming', () => {
  const h1 = (headers: Record<string, string>, method = 'POST', httpVersion = '1.1'): ServeRequest => ({
    headers,
    method,
    httpVersion,
    socket: {} as never,
    readableDidRead: false,
  });
  const h2 = (headers: Record<string, string>, method = 'POST'): ServeRequest =>
    new StreamRequest(method, '/', headers, {} as never, {} as never);

  it.each([
    ['chunked', h1({ 'transfer-encoding': 'chunked' }), { hasBody: true }],
    ['CHUNKED', h1({ 'transfer-encoding': 'CHUNKED' }), { hasBody: true }],
    ['a length', h1({ 'content-length': '10' }), { hasBody: true, bodyLength: 10 }],
    ['length 0', h1({ 'content-length': '0' }), { hasBody: false, bodyLength: 0 }],
    ['no framing on HTTP/1.1', h1({}), { hasBody: false }],
    ['HTTP/2 POST without a length', h2({}), { hasBody: true }],
    ['HTTP/2 GET without a length', h2({}, 'GET'), { hasBody: false }],
    ['HTTP/2 with a length', h2({ 'content-length': '4' }), { hasBody: true, bodyLength: 4 }],
  ])('%s', (_name, req, expected) => {
    expect(bodyFraming(req)).toEqual(expected);
  });

  it.each([
    ['gzip, chunked', h1({ 'transfer-encoding': 'gzip, chunked' }), 501],
    ['identity', h1({ 'transfer-encoding': 'identity' }), 501],
    ['chunked on HTTP/1.0', h1({ 'transfer-encoding': 'chunked' }, 'POST', '1.0'), 400],
    ['a comma-listed length', h1({ 'content-length': '5, 5' }), 400],
    ['a signed length', h1({ 'content-length': '+5' }), 400],
    ['a huge length', h1({ 'content-length': '9999999999999999999' }), 400],
  ])('refuses %s', (_name, req, status) => {
    expect(bodyFraming(req).refused?.[0]).toBe(status);
  });
});

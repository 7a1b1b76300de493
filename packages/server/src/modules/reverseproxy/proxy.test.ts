import { describe, expect, it } from 'vitest';
import { responseHeadersOf } from './proxy.js';

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

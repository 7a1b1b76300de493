import { describe, expect, it } from 'vitest';
import { HTTPParser, llhttpProblem, newParser, onHeads } from './llhttp.js';

describe('node HTTP/1 parser (llhttp) on this runtime', () => {
  it('passes the start-up self-test, so the direct path and the pooled back-end client are used', () => {
    // A Node release that changes node:_http_common fails here first (and the web service
    // then falls back to node:http: reverseproxy.fallback.test.ts).
    expect(llhttpProblem).toBeUndefined();
  });

  it('is strict: an obs-folded header and a bare LF line end are errors', () => {
    for (const text of ['GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n', 'GET / HTTP/1.1\nHost: x\n\n']) {
      const parser = newParser(HTTPParser.REQUEST);
      let heads = 0;
      onHeads(parser, () => {
        heads++;
        return 0;
      });
      const r = parser.execute(Buffer.from(text, 'latin1'));
      parser.close();
      expect(r instanceof Error, JSON.stringify(text)).toBe(true);
      expect(heads).toBe(0);
    }
  });
});

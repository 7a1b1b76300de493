// Webhook calls against a local HTTP server: success strings, retries with pauses, the proxy
// choice, and the "empty success list" rule (a validation error, never a silent failure).
import { ddnsWebhookSchema } from '@lucky/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { recorder } from '../../../test/ddns-helpers.js';
import { HttpClients } from '../../core/outbound/client.js';
import { callWebhook, webhookVars } from './webhook.js';

const http = new HttpClients();
afterAll(() => http.close());
const vars = webhookVars({
  ip: '192.0.2.5',
  taskName: 't',
  recordType: 'A',
  success: ['a.example.com'],
  failed: [],
  now: new Date(),
});

describe('webhook calls', () => {
  it('retries a failing call with growing pauses until it succeeds', async () => {
    const rec = await recorder([
      { status: 500, body: 'oops' },
      { status: 200, body: 'not yet' },
      { status: 200, body: 'ok done' },
    ]);
    const pauses: number[] = [];
    try {
      const w = ddnsWebhookSchema.parse({
        enabled: true,
        url: `${rec.url}/h`,
        method: 'POST',
        body: '{"d":"#{successDomains}"}',
        successStrings: ['ok'],
        retries: 3,
      });
      const r = await callWebhook(w, vars, { http, delay: async (ms) => void pauses.push(ms) });
      expect(r).toMatchObject({
        ok: true,
        status: 200,
        attempts: 3,
        response: 'ok done',
        reason: { code: 'webhookOk' },
      });
      expect(pauses).toEqual([1000, 2000]);
      expect(rec.seen.map((s) => s.body)).toEqual(Array(3).fill('{"d":"a.example.com"}'));
    } finally {
      await rec.close();
    }
  });

  it('gives up after the retries and says why', async () => {
    const rec = await recorder([{ status: 200, body: 'nope' }]);
    try {
      const w = ddnsWebhookSchema.parse({
        enabled: true,
        url: rec.url,
        method: 'GET',
        successStrings: ['ok'],
        retries: 1,
      });
      const r = await callWebhook(w, vars, { http, delay: async () => {} });
      expect(r).toMatchObject({
        ok: false,
        attempts: 2,
        reason: { code: 'webhookCallError', params: { cause: { code: 'answerNotSuccess', params: { status: 200 } } } },
      });
      expect(r.reason.text).toBe('webhook call error: HTTP 200: the answer is not a success');
      const down = await callWebhook({ ...w, url: 'http://127.0.0.1:9/' }, vars, { http, delay: async () => {} }, 0);
      expect(down.ok).toBe(false);
      expect(down.reason).toMatchObject({
        code: 'webhookCallError',
        params: { detail: expect.stringMatching(/ECONNREFUSED/) },
      });
    } finally {
      await rec.close();
    }
  });

  it('an empty success list with the check on is refused when saved', () => {
    const r = ddnsWebhookSchema.safeParse({ enabled: true, url: 'http://h/', method: 'GET', successStrings: [] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['successStrings'], message: 'successStringsRequired' });
    expect(
      ddnsWebhookSchema.safeParse({ enabled: true, url: 'http://h/', method: 'GET', disableSuccessCheck: true })
        .success,
    ).toBe(true);
  });
});

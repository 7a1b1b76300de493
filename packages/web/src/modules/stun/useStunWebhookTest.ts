// The webhook test of the STUN dialogs on the DDNS webhook machinery (same fields, template and
// answer display): the form's webhook is checked as if it were on, then called once with demo
// addresses. The answer's reason and a refused call are put in this module's words before the
// DDNS result dialog shows them.
import type { DdnsWebhookTestResponse, StunRule } from '@lucky/shared';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../api/callErrors';
import { codedText } from '../../i18n/coded';
import { checkWebhookForTest } from '../ddns/taskForm';
import { useWebhookTest } from '../ddns/useWebhookTest';
import { testWebhook } from './api';
import { errorText } from './errors';
// The webhook fields and the result dialog are styled there (it loads with the DDNS screen otherwise).
import '../ddns/ddns.css';

export function useStunWebhookTest() {
  const { t } = useTranslation();
  const test = useWebhookTest();

  /** The problems that keep the webhook from being tested (paths under `webhook.`); none = it was called. */
  const run = (webhook: StunRule['webhook'], rule: string): Failure[] => {
    const issues = checkWebhookForTest(webhook);
    if (issues.length > 0) return issues.map((i) => ({ ...i, field: `webhook.${i.field}` }));
    void test.run(async (): Promise<DdnsWebhookTestResponse> => {
      try {
        const r = await testWebhook(webhook, rule);
        // No code: the DDNS display shows the text as it is, already in the UI language.
        return { ...r, reason: { code: '', text: codedText('stun', 'reason', r.reason) } };
      } catch (err) {
        const text = errorText(err, t);
        throw text === undefined ? err : new Error(text);
      }
    });
    return [];
  };

  return { testing: test.testing, run, resultModal: test.resultModal };
}

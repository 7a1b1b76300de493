// The webhook test of the STUN dialogs on the core webhook kit: the form's webhook is checked as
// if it were on (the module's shared test schema), then called once with demo addresses; the
// answer and a refused call read in the module's words, then the webhook's.
import { type StunRule, stunWebhook } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import { useWebhookTest } from '../../components/webhook/useWebhookTest';
import { testProblems } from '../../components/webhook/webhookForm';
import { testWebhook } from './api';

export function useStunWebhookTest() {
  const test = useWebhookTest('stun');

  /** The problems that keep the webhook from being tested (paths under `webhook.`); none = it was called. */
  const run = (webhook: StunRule['webhook'], key: string): Failure[] => {
    const problems = testProblems(stunWebhook.testSchema, webhook, 'webhook.');
    if (problems.length === 0) void test.run(() => testWebhook(webhook, key));
    return problems;
  };

  return { testing: test.testing, run, resultModal: test.resultModal };
}

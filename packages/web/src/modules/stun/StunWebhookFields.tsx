// STUN's webhook block (a rule's and the global one): the core's webhook form with the variables
// a STUN notification fills in (server: modules/stun/notify.ts).
import { WebhookFields } from '../../components/webhook/WebhookFields';

const WEBHOOK_VARS =
  '#{ruleName} #{protocol} #{innerIp} #{innerPort} #{outerIp} #{outerPort} #{outerAddr} #{time} #{timestamp}';

export interface StunWebhookFieldsProps {
  /** When it is called, as the dialog explains it. */
  enabledHelp: string;
  testing: boolean;
  onTest: () => void;
  testId: string;
}

export function StunWebhookFields({ enabledHelp, testing, onTest, testId }: StunWebhookFieldsProps) {
  return (
    <WebhookFields
      prefix={['webhook']}
      vars={WEBHOOK_VARS}
      enabledHelp={enabledHelp}
      testing={testing}
      onTest={onTest}
      testId={testId}
    />
  );
}

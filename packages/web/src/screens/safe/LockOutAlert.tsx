// The refusal that would have shut the admin out of the console, shown where it happened: it names
// the admin's own address and the rule that would have refused it, in words.
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

export interface LockOut {
  ip: string;
  rule: string;
}

/** The lock-out text with its rule in words (`safe.test_rule_<rule>`), the raw code when unknown. */
export function lockOutText(t: (key: string, vars?: Record<string, unknown>) => string, l: LockOut): string {
  const ruleKey = `safe.test_rule_${l.rule}`;
  const rule = t(ruleKey);
  return t('safe.err_wouldLockOut', { ip: l.ip, rule: rule === ruleKey ? l.rule : rule });
}

export function LockOutAlert({ lockOut, onClose }: { lockOut: LockOut; onClose?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      closable={onClose ? { onClose } : false}
      style={{ marginBottom: 16 }}
      title={t('safe.lists_lockOutTitle')}
      description={lockOutText(t, lockOut)}
      data-testid="safe-lockout"
    />
  );
}

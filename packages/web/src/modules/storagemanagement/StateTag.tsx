// A storage's state as a coloured tag: online, offline, checking, disabled (the entry is off),
// stopped (the module is off).
import type { StorageState } from '@lucky/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Record<StorageState, string> = {
  online: 'success',
  offline: 'error',
  checking: 'processing',
  disabled: 'default',
  stopped: 'default',
};

export function StorageStateTag({ state, testId }: { state: StorageState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[state] ?? 'default'} data-testid={testId} data-state={state}>
      {t(`storagemanagement.state_${state}`)}
    </Tag>
  );
}

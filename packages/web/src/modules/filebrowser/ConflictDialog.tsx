// Asked once for a whole upload or paste when names are taken: skip, replace or keep both.
// A question with three answers, not a form: it has no place on components/form/FormDialog.
import type { ConflictPolicy } from '@lucky/shared';
import { Button, Modal, Space, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Asking {
  names: string[];
  resolve: (p: ConflictPolicy | undefined) => void;
}

/** `ask(names)` resolves to the policy, or undefined when the user cancels. */
export function useConflictAsk() {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<Asking | undefined>();
  const ask = useCallback(
    (names: string[]) => new Promise<ConflictPolicy | undefined>((resolve) => setAsking({ names, resolve })),
    [],
  );
  const answer = (p: ConflictPolicy | undefined) => {
    asking?.resolve(p);
    setAsking(undefined);
  };
  const shown = asking?.names.slice(0, 8) ?? [];
  const element = (
    <Modal
      open={asking !== undefined}
      title={t('filebrowser.browse_conflictTitle', { count: asking?.names.length ?? 0 })}
      onCancel={() => answer(undefined)}
      footer={
        <Space wrap>
          <Button onClick={() => answer(undefined)}>{t('common.cancel')}</Button>
          <Button onClick={() => answer('skip')} data-testid="fb-conflict-skip">
            {t('filebrowser.browse_conflictSkip')}
          </Button>
          <Button onClick={() => answer('replace')} danger data-testid="fb-conflict-replace">
            {t('filebrowser.browse_conflictReplace')}
          </Button>
          <Button type="primary" onClick={() => answer('keepBoth')} data-testid="fb-conflict-keepBoth">
            {t('filebrowser.browse_conflictKeepBoth')}
          </Button>
        </Space>
      }
      data-testid="fb-conflict"
    >
      <Typography.Paragraph>{t('filebrowser.browse_conflictText')}</Typography.Paragraph>
      <ul className="fb-conflict-names">
        {shown.map((n) => (
          <li key={n}>{n}</li>
        ))}
        {(asking?.names.length ?? 0) > shown.length && <li>…</li>}
      </ul>
    </Modal>
  );
  return { ask, element };
}

// What a bulk action did on each console: ok, or why not (the remote's own refusal included),
// in the user's language.
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { WanjiBulkResult } from '@lucky/shared';
import { Button, List, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { resultText } from './errors';

export type BulkAction = 'restart' | 'module' | 'backup' | 'update';

export interface BulkOutcome {
  action: BulkAction;
  results: WanjiBulkResult[];
}

export function BulkResultsDialog({ outcome, onClose }: { outcome: BulkOutcome | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const results = outcome?.results ?? [];
  const ok = results.filter((r) => r.ok).length;
  return (
    <Modal
      open={outcome !== undefined}
      title={outcome ? t(`wanji_admin.dialog_results_${outcome.action}`) : ''}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="wanji-results-close">
          {t('wanji_admin.ui_close')}
        </Button>
      }
    >
      <Typography.Paragraph data-testid="wanji-results-count">
        {t('wanji_admin.dialog_resultsCount', { ok, failed: results.length - ok })}
      </Typography.Paragraph>
      <List
        size="small"
        bordered
        dataSource={results}
        data-testid="wanji-results"
        renderItem={(r) => (
          <List.Item data-testid={`wanji-result-${r.key}`} data-ok={String(r.ok)}>
            <List.Item.Meta
              avatar={
                r.ok ? (
                  <CheckCircleFilled className="wanji-ok" aria-label={t('wanji_admin.dialog_resultOk')} />
                ) : (
                  <CloseCircleFilled className="wanji-failed" aria-label={t('wanji_admin.dialog_resultFailed')} />
                )
              }
              title={r.name}
              description={
                r.ok
                  ? r.version
                    ? t('wanji_admin.dialog_resultVersion', { version: r.version })
                    : t('wanji_admin.dialog_resultOk')
                  : resultText(r)
              }
            />
          </List.Item>
        )}
      />
    </Modal>
  );
}

// A storage's space: a bar of the used share and "free of total" in spec §9 sizes (base 1000,
// three digits). A backend that tells only some figures shows what it knows.
import { formatSize, type StorageSpaceView } from '@lucky/shared';
import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Used share from 90 % on is a warning, from 97 % an error. */
const WARN_AT = 90;
const FULL_AT = 97;

export function SpaceBar({ space, testId }: { space?: StorageSpaceView; testId?: string }) {
  const { t } = useTranslation();
  if (!space || (space.total === undefined && space.free === undefined && space.used === undefined)) {
    return (
      <Typography.Text type="secondary" className="sm-space-unknown" data-testid={testId}>
        {t('storagemanagement.spaceUnknown')}
      </Typography.Text>
    );
  }
  const { total, free, used } = space;
  const usedOf = total !== undefined && total > 0 ? (total - (free ?? total - (used ?? 0))) / total : undefined;
  const percent = usedOf === undefined ? undefined : Math.min(100, Math.max(0, Math.round(usedOf * 1000) / 10));
  const status =
    percent === undefined ? 'normal' : percent >= FULL_AT ? 'exception' : percent >= WARN_AT ? 'active' : 'normal';
  return (
    <div className="sm-space" data-testid={testId} data-percent={percent}>
      {percent !== undefined && (
        <Progress
          percent={percent}
          size="small"
          status={status}
          strokeColor={percent >= WARN_AT && percent < FULL_AT ? 'var(--ant-color-warning)' : undefined}
          showInfo={false}
          aria-label={t('storagemanagement.usedPercent', { percent })}
        />
      )}
      <Typography.Text type="secondary" className="sm-space-text">
        {free !== undefined && total !== undefined
          ? t('storagemanagement.freeOfTotal', { free: formatSize(free), total: formatSize(total) })
          : free !== undefined
            ? t('storagemanagement.freeOnly', { free: formatSize(free) })
            : t('storagemanagement.usedOnly', { used: formatSize(used ?? 0) })}
        {percent !== undefined && ` · ${t('storagemanagement.usedPercent', { percent })}`}
      </Typography.Text>
    </div>
  );
}

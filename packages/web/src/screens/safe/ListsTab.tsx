// The "IP lists" tab (`?tab=lists`): the allow mode and exempt scopes, the allow and block lists,
// and the test ("would this address get in, and through which rule?"). A lock-out refusal from
// either list stands above them until closed.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Empty, Skeleton } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AllowModeCard } from './AllowModeCard';
import { EntryTable } from './EntryTable';
import { type LockOut, LockOutAlert } from './LockOutAlert';
import { fetchSafe, safeKeys } from './safeApi';
import { TestCard } from './TestCard';

export function ListsTab() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const safe = useQuery({ queryKey: safeKeys.all, queryFn: ({ signal }) => fetchSafe(signal) });
  const [lockOut, setLockOut] = useState<LockOut>();
  const [failure, setFailure] = useState<string>();
  const mode = useMemo(
    () => safe.data && { allowMode: safe.data.settings.allowMode, exempt: safe.data.settings.exempt },
    [safe.data],
  );

  if (safe.isPending) return <Skeleton active />;
  if (!safe.data || !mode)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('safe.lists_loadFailed')} />;

  const changed = () => void qc.invalidateQueries({ queryKey: safeKeys.all });
  const lists = (['allow', 'block'] as const).map((list) => (
    <EntryTable
      key={list}
      list={list}
      entries={safe.data[list]}
      loading={safe.isFetching}
      onChanged={changed}
      onLockOut={(l) => {
        setFailure(undefined);
        setLockOut(l);
      }}
      onError={(text) => {
        setLockOut(undefined);
        setFailure(text);
      }}
    />
  ));

  return (
    <div className="safe-lists" data-testid="safe-lists-tab">
      <AllowModeCard values={mode} you={safe.data.you} />
      {lockOut && <LockOutAlert lockOut={lockOut} onClose={() => setLockOut(undefined)} />}
      {failure && <Alert type="error" showIcon closable={{ onClose: () => setFailure(undefined) }} title={failure} />}
      {lists}
      <TestCard you={safe.data.you} />
    </div>
  );
}

// One storage in the list: switch, name, kind, read-only, state; where it is (folder or server);
// its space; why it is not available; which file services mount it; actions to check it now,
// edit and delete (the server refuses a delete while a service mounts it, naming who).
import { CloudServerOutlined, DeleteOutlined, EditOutlined, FolderOutlined, SyncOutlined } from '@ant-design/icons';
import type { StorageEntryView } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { codedTextWithCauses } from '../../i18n/coded';
import { SpaceBar } from './SpaceBar';
import { StorageStateTag } from './StateTag';

export interface StorageCardProps {
  storage: StorageEntryView;
  onToggle: (enabled: boolean) => Promise<unknown>;
  onProbe: () => Promise<unknown>;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
}

export function StorageCard({ storage: s, onToggle, onProbe, onEdit, onDelete }: StorageCardProps) {
  const { t } = useTranslation();
  const [switching, setSwitching] = useState(false);
  const [probing, setProbing] = useState(false);
  const key = s.key;
  const live = s.state !== 'disabled' && s.state !== 'stopped';
  const where = s.kind === 'local' ? s.local.path : s.webdav.url;
  const showReason = s.state === 'offline' && s.reason;

  const busy = async (set: (b: boolean) => void, run: () => Promise<unknown>) => {
    set(true);
    try {
      await run();
    } finally {
      set(false);
    }
  };

  return (
    <Card size="small" className={`sm-card sm-card-${s.state}`} data-testid={`sm-storage-${key}`}>
      <div className="sm-card-head">
        <div className="sm-card-title">
          <Switch
            checked={s.enabled}
            loading={switching}
            onChange={(on) => void busy(setSwitching, () => onToggle(on))}
            aria-label={t('storagemanagement.entrySwitch')}
            data-testid={`sm-storage-switch-${key}`}
          />
          <Typography.Text strong className="sm-card-name" ellipsis data-testid={`sm-storage-name-${key}`}>
            {s.name}
          </Typography.Text>
          <StorageStateTag state={s.state} testId={`sm-storage-state-${key}`} />
          <Tag icon={s.kind === 'local' ? <FolderOutlined /> : <CloudServerOutlined />} className="sm-kind">
            {t(`storagemanagement.kind_${s.kind}`)}
          </Tag>
          {s.readOnly && (
            <Tag color="gold" data-testid={`sm-storage-readonly-${key}`}>
              {t('storagemanagement.readOnlyTag')}
            </Tag>
          )}
        </div>
        <Space size={4} wrap className="sm-card-actions">
          <Button
            icon={<SyncOutlined />}
            disabled={!live}
            loading={probing}
            onClick={() => void busy(setProbing, onProbe)}
            data-testid={`sm-storage-probe-${key}`}
          >
            {t('storagemanagement.probe')}
          </Button>
          <Button icon={<EditOutlined />} onClick={onEdit} data-testid={`sm-storage-edit-${key}`}>
            {t('storagemanagement.edit')}
          </Button>
          <Popconfirm
            title={t('storagemanagement.deleteConfirm', { name: s.name })}
            okText={t('storagemanagement.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete()}
          >
            <Button danger icon={<DeleteOutlined />} data-testid={`sm-storage-delete-${key}`}>
              {t('storagemanagement.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>

      <div className="sm-card-where">
        <Typography.Text className="sm-mono" copyable={{ text: where }} data-testid={`sm-storage-where-${key}`}>
          {where}
        </Typography.Text>
        {s.kind === 'webdav' && s.webdav.user && (
          <Typography.Text type="secondary">{t('storagemanagement.asUser', { user: s.webdav.user })}</Typography.Text>
        )}
      </div>

      {(s.state === 'online' || s.state === 'checking') && (
        <SpaceBar space={s.space} testId={`sm-storage-space-${key}`} />
      )}

      {showReason && (
        <Typography.Text type="danger" data-testid={`sm-storage-reason-${key}`}>
          {codedTextWithCauses('storagemanagement', 'reason', { ...s.reason, text: s.error })}
        </Typography.Text>
      )}

      <div className="sm-card-foot">
        <div className="sm-mounts" data-testid={`sm-storage-mounts-${key}`}>
          <Typography.Text type="secondary">{t('storagemanagement.usedBy')}</Typography.Text>
          {s.mounts.length === 0 ? (
            <Typography.Text type="secondary">{t('storagemanagement.usedByNone')}</Typography.Text>
          ) : (
            s.mounts.map((m) => (
              <Tooltip
                key={`${m.module}:${m.owner}`}
                title={m.enabled ? undefined : t('storagemanagement.mountModuleOff')}
              >
                <Tag color={m.enabled ? 'blue' : 'default'} className="sm-mount">
                  {t(`menu.${m.module}`)} · {m.owner}
                </Tag>
              </Tooltip>
            ))
          )}
        </div>
        {s.checkedAt !== undefined && (
          <Typography.Text type="secondary" className="sm-checked">
            {t('storagemanagement.checkedAt', { time: formatTime(s.checkedAt, 'HH:mm:ss') })}
          </Typography.Text>
        )}
      </div>
    </Card>
  );
}

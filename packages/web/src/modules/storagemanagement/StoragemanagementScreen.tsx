// Storage management (/storagemanagement): the storages the file services mount — local folders
// and remote WebDAV servers — each with its space, reachability and the services using it; the
// add / edit dialog; the module switch. A list that cannot be loaded says so (spec §8 "storage
// list error").
import { PlusOutlined } from '@ant-design/icons';
import type { StorageEntryView } from '@lucky/shared';
import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { errorText } from './errors';
import { StorageCard } from './StorageCard';
import { StorageDialog } from './StorageDialog';
import { useStorageActions, useStorageList } from './useStorages';
import './storagemanagement.css';

/**
 * The dialog's state. `seq` grows with every opening and keys the dialog, so each opening starts
 * from a fresh form; closing keeps the key so the closing animation still plays.
 */
interface DialogState {
  seq: number;
  open: boolean;
  of?: StorageEntryView;
}

export default function StoragemanagementScreen() {
  const { t } = useTranslation();
  const list = useStorageList();
  const actions = useStorageActions();
  const [editing, setEditing] = useState<DialogState>({ seq: 0, open: false });
  const data = list.data;
  const open = (of?: StorageEntryView) => setEditing((d) => ({ seq: d.seq + 1, open: true, of }));
  const close = () => setEditing((d) => ({ ...d, open: false }));
  const otherNames = (data?.list ?? []).filter((s) => s.key !== editing.of?.key).map((s) => s.name);
  const { busy: switching, toggle: toggleModule } = useModuleSwitch(actions.setModuleEnabled);

  return (
    <div className="screen sm-screen" data-testid="storagemanagement-screen">
      <ModuleHeader
        title={t('storagemanagement.title')}
        prefix="storagemanagement"
        className="sm-toolbar"
        moduleSwitch={{
          checked: data?.enabled ?? false,
          onChange: (on) => void toggleModule(on),
          busy: switching || list.isPending,
          label: t('storagemanagement.moduleSwitch'),
          testId: 'storagemanagement-module-switch',
          caption: t('storagemanagement.moduleSwitch'),
        }}
        query={list}
        updatedAtKey="storagemanagement.updatedAt"
      >
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open()} data-testid="storagemanagement-add">
          {t('storagemanagement.add')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="storagemanagement"
        loadError={
          list.isError && !data && { title: t('storagemanagement.loadError'), description: errorText(list.error, t) }
        }
        off={
          data &&
          !data.enabled && {
            title: t('storagemanagement.moduleDisabled'),
            help: t('storagemanagement.moduleDisabledHelp'),
          }
        }
        loading={!data && list.isPending}
      />

      {data && data.list.length === 0 && (
        <Card>
          <Empty description={t('storagemanagement.empty')}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open()}>
              {t('storagemanagement.add')}
            </Button>
          </Empty>
        </Card>
      )}

      {data && data.list.length > 0 && (
        <div className="sm-list">
          {data.list.map((s) => (
            <StorageCard
              key={s.key}
              storage={s}
              onToggle={(on) => actions.setEnabled(s.key, on)}
              onProbe={() => actions.probe(s.key)}
              onEdit={() => open(s)}
              onDelete={() => actions.remove(s.key)}
            />
          ))}
        </div>
      )}

      <StorageDialog
        key={`storage-${editing.seq}`}
        open={editing.open}
        storage={editing.of}
        otherNames={otherNames}
        onClose={close}
        onSaved={(s) => {
          actions.saved(s);
          close();
        }}
      />
    </div>
  );
}

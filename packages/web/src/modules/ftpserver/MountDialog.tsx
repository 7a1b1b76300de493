// Add or edit a mount: the folder name clients see at the root and the storage of storage
// management behind it. Checked with the server's schema before sending; a refusal lands beside
// its field.
import { type FtpserverMountView, MODULE_ROUTES } from '@lucky/shared';
import { Alert, Form, Input, Select, Space, Switch, Tag, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { failureText, useFormErrors } from '../../hooks/useFormErrors';
import { createMount, updateMount } from './api';
import { checkMount, type MountFormValues, mountFieldOf, valuesToMount } from './mountForm';
import { type StorageChoice, useStorages } from './pickers';

export interface MountDialogProps {
  open: boolean;
  mount?: FtpserverMountView;
  /** Folder names of the other mounts (a name is taken once). */
  otherNames: readonly string[];
  onClose: () => void;
  onSaved: () => void;
}

export function MountDialog({ open, mount, otherNames, onClose, onSaved }: MountDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MountFormValues>();
  const storages = useStorages(open);
  const errors = useFormErrors(form, { ns: 'ftpserver', nameOf: mountFieldOf });

  /** One field through the same checks as a save. */
  const fieldRule = (field: keyof MountFormValues): Rule => ({
    validator: () => {
      const issue = checkMount(valuesToMount(form.getFieldsValue(true)), otherNames).find((i) => i.field === field);
      return issue ? Promise.reject(new Error(failureText(t, 'ftpserver', issue))) : Promise.resolve();
    },
  });

  const save: SaveHandler = async (saved) => {
    const input = valuesToMount(form.getFieldsValue(true));
    if (mount) await updateMount(mount.key, input);
    else await createMount(input);
    saved(t('ftpserver.mountSaved'));
    onSaved();
  };

  // A stored mount whose storage is gone stays choosable (it is what the mount names).
  const options = storages.list.map((s) => ({ value: s.key, label: s.name, storage: s as StorageChoice | undefined }));
  if (mount && !options.some((o) => o.value === mount.storage))
    options.push({ value: mount.storage, label: mount.storageName || mount.storage, storage: undefined });

  return (
    <FormDialog<MountFormValues>
      open={open}
      title={t(mount ? 'ftpserver.editMount' : 'ftpserver.addMount')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="ftp-mount"
      width={560}
      initialValues={{ name: mount?.name ?? '', storage: mount?.storage, enabled: mount?.enabled ?? true }}
    >
      <Form.Item
        name="name"
        label={t('ftpserver.mountName')}
        extra={t('ftpserver.mountNameHelp')}
        rules={[fieldRule('name')]}
      >
        <Input placeholder={t('ftpserver.mountNamePlaceholder')} maxLength={64} data-testid="ftp-mount-name" />
      </Form.Item>
      <Form.Item
        name="storage"
        label={t('ftpserver.storage')}
        extra={t('ftpserver.storageHelp')}
        rules={[fieldRule('storage')]}
      >
        <Select
          options={options}
          loading={storages.loading}
          placeholder={t('ftpserver.storagePlaceholder')}
          notFoundContent={storages.loading ? undefined : t('ftpserver.noStorages')}
          data-testid="ftp-mount-storage"
          optionRender={(o) => <StorageOption name={String(o.label)} storage={o.data.storage} />}
        />
      </Form.Item>
      {!storages.loading && storages.list.length === 0 && (
        <Alert
          type="warning"
          showIcon
          className="ftp-dialog-note"
          title={storages.failed ? t('ftpserver.storagesFailed') : t('ftpserver.noStorages')}
          description={<Link to={MODULE_ROUTES.storagemanagement}>{t('ftpserver.openStorageManagement')}</Link>}
          data-testid="ftp-no-storages"
        />
      )}
      <Form.Item
        name="enabled"
        label={t('ftpserver.mountEnabled')}
        valuePropName="checked"
        extra={t('ftpserver.mountEnabledHelp')}
      >
        <Switch data-testid="ftp-mount-enabled" />
      </Form.Item>
    </FormDialog>
  );
}

/** A storage in the picker: its name, kind, and what keeps writes or clients away (read-only, off, offline). */
function StorageOption({ name, storage }: { name: string; storage?: StorageChoice }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      <span>{name}</span>
      {storage && <Typography.Text type="secondary">{t(`ftpserver.storageKind_${storage.kind}`)}</Typography.Text>}
      {storage?.readOnly && <Tag>{t('ftpserver.storageReadOnly')}</Tag>}
      {storage && (storage.state === 'offline' || storage.state === 'disabled' || storage.state === 'stopped') && (
        <Tag color="warning">{t(`ftpserver.storageState_${storage.state}`)}</Tag>
      )}
    </Space>
  );
}

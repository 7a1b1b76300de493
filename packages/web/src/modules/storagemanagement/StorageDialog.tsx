// Add or edit a storage: its name, kind, read-only and switch, then the kind's own fields (a
// local folder's path; a WebDAV server's address, account, password and certificate check).
// The form checks what it can as the user types (the shared schema, the other names); a refusal
// from the server (a folder that does not exist …) lands beside its field and the dialog stays
// open. A saved entry with something to know (`/` published, a password over plain HTTP) is
// saved and the warning shown.
import { SECRET_MASK, type StorageEntryView } from '@lucky/shared';
import { Alert, App, Form, Input, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { createStorage, updateStorage } from './api';
import {
  checkStorage,
  isRootPath,
  newStorageValues,
  type StorageFormValues,
  storageToValues,
  valuesToInput,
} from './storageForm';

export interface StorageDialogProps {
  open: boolean;
  /** The entry to edit (as listed when the dialog opened); absent = add. */
  storage?: StorageEntryView;
  otherNames: readonly string[];
  onClose: () => void;
  onSaved: (storage: StorageEntryView) => void;
}

export function StorageDialog({ open, storage, otherNames, onClose, onSaved }: StorageDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<StorageFormValues>();
  const errors = useFormErrors(form, { ns: 'storagemanagement' });
  const kind = Form.useWatch('kind', form) ?? storage?.kind ?? 'local';
  const path = Form.useWatch(['local', 'path'], form) ?? '';
  const url = Form.useWatch(['webdav', 'url'], form) ?? '';

  const save: SaveHandler = async (saved) => {
    const input = valuesToInput({ ...newStorageValues(), ...form.getFieldsValue(true) });
    const local = checkStorage(input, otherNames);
    if (local.length > 0) return local;
    const reply = storage ? await updateStorage(storage.key, input) : await createStorage(input);
    saved(t(storage ? 'storagemanagement.saved' : 'storagemanagement.added'));
    for (const w of reply.warnings)
      void message.warning({ content: t(`storagemanagement.warn_${w.code}`, w.params ?? {}), duration: 10 });
    onSaved(reply.storage);
  };

  return (
    <FormDialog<StorageFormValues>
      open={open}
      title={storage ? t('storagemanagement.editTitle') : t('storagemanagement.addTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="sm-dialog"
      width={640}
      labelWidth={130}
      className="sm-dialog"
      name="storage"
      initialValues={storage ? storageToValues(storage) : newStorageValues()}
    >
      <Form.Item
        name="name"
        label={t('storagemanagement.name')}
        rules={[{ required: true, whitespace: true, message: t('storagemanagement.err_nameRequired') }]}
      >
        <Input maxLength={64} placeholder={t('storagemanagement.namePlaceholder')} data-testid="sm-dialog-name" />
      </Form.Item>
      <Form.Item name="kind" label={t('storagemanagement.kind')}>
        <Radio.Group optionType="button" buttonStyle="solid" data-testid="sm-dialog-kind">
          <Radio.Button value="local">{t('storagemanagement.kind_local')}</Radio.Button>
          <Radio.Button value="webdav">{t('storagemanagement.kind_webdav')}</Radio.Button>
        </Radio.Group>
      </Form.Item>

      {kind === 'local' ? (
        <>
          <Form.Item
            name={['local', 'path']}
            label={t('storagemanagement.path')}
            extra={t('storagemanagement.pathHelp')}
            rules={[{ required: true, whitespace: true, message: t('storagemanagement.err_pathRequired') }]}
          >
            <Input className="sm-mono" placeholder="/mnt/disk1/share" data-testid="sm-dialog-path" />
          </Form.Item>
          {isRootPath(path) && (
            <Alert
              type="warning"
              showIcon
              className="sm-dialog-alert"
              title={t('storagemanagement.warn_rootFolder')}
              data-testid="sm-dialog-root-warning"
            />
          )}
        </>
      ) : (
        <>
          <Form.Item
            name={['webdav', 'url']}
            label={t('storagemanagement.url')}
            extra={t('storagemanagement.urlHelp')}
            rules={[{ required: true, whitespace: true, message: t('storagemanagement.err_urlRequired') }]}
          >
            <Input className="sm-mono" placeholder="https://nas.lan/dav/" data-testid="sm-dialog-url" />
          </Form.Item>
          <Form.Item name={['webdav', 'user']} label={t('storagemanagement.user')}>
            <Input autoComplete="off" data-testid="sm-dialog-user" />
          </Form.Item>
          <Form.Item
            name={['webdav', 'password']}
            label={t('storagemanagement.password')}
            extra={storage ? t('storagemanagement.passwordKept', { mask: SECRET_MASK }) : undefined}
          >
            <Input.Password autoComplete="new-password" data-testid="sm-dialog-password" />
          </Form.Item>
          {/^https:/i.test(url.trim()) ? (
            <Form.Item
              name={['webdav', 'tlsVerify']}
              label={t('storagemanagement.tlsVerify')}
              extra={t('storagemanagement.tlsVerifyHelp')}
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
          ) : (
            /^http:/i.test(url.trim()) && (
              <Alert type="info" showIcon className="sm-dialog-alert" title={t('storagemanagement.plainHttpNote')} />
            )
          )}
        </>
      )}

      <Form.Item
        name="readOnly"
        label={t('storagemanagement.readOnly')}
        extra={t('storagemanagement.readOnlyHelp')}
        valuePropName="checked"
      >
        <Switch data-testid="sm-dialog-readonly" />
      </Form.Item>
      <Form.Item name="enabled" label={t('storagemanagement.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}

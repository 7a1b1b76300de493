// Add or edit a mount: its folder name (what clients see at the top), the storage it shows, and
// whether anonymous clients may read it (when anonymous read is on). A refusal lands on its field.
import { isDavMountName, WEBDAV_LIMITS as L, type WebdavMount, type WebdavMountInput } from '@lucky/shared';
import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { addMount, updateMount } from './api';
import type { StorageChoice } from './useWebdav';

export interface MountDialogProps {
  open: boolean;
  /** undefined: a new mount. */
  mount?: WebdavMount;
  storages: StorageChoice[];
  anonymous: boolean;
  onClose: () => void;
  onSaved: () => void;
}

const FIELDS = ['name', 'storage', 'enabled', 'public'];

export function MountDialog({ open, mount, storages, anonymous, onClose, onSaved }: MountDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WebdavMountInput>();
  const errors = useFormErrors(form, {
    ns: 'webdav',
    // The server may name the list entry (`mounts.3.storage`): the dialog's item is the last part.
    nameOf: (field) => {
      const last = field.split('.').at(-1) ?? '';
      return FIELDS.includes(last) ? [last] : undefined;
    },
  });
  const save: SaveHandler = async (saved) => {
    const values = form.getFieldsValue() as WebdavMountInput;
    if (mount) await updateMount(mount.key, values);
    else await addMount(values);
    saved(t('webdav.saved'));
    onSaved();
  };
  return (
    <FormDialog<WebdavMountInput>
      open={open}
      title={t(mount ? 'webdav.editMount' : 'webdav.addMount')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="webdav-mount"
      width={560}
      initialValues={mount ?? { name: '', storage: storages[0]?.key ?? '', enabled: true, public: false }}
    >
      <Form.Item
        name="name"
        label={t('webdav.mountName')}
        extra={t('webdav.mountNameHelp')}
        rules={[
          { required: true, whitespace: true, message: t('webdav.err_mountNameRequired') },
          {
            validator: (_, v: string) =>
              !v?.trim() || isDavMountName(v.trim())
                ? Promise.resolve()
                : Promise.reject(new Error(t('webdav.err_mountNameInvalid'))),
          },
        ]}
      >
        <Input maxLength={L.name.max} data-testid="webdav-mount-name" />
      </Form.Item>
      <Form.Item
        name="storage"
        label={t('webdav.storage')}
        extra={storages.length === 0 ? t('webdav.noStorages') : undefined}
        rules={[{ required: true, message: t('webdav.err_storageRequired') }]}
      >
        <Select
          options={storages.map((s) => ({ value: s.key, label: s.name }))}
          placeholder={t('webdav.chooseStorage')}
          data-testid="webdav-mount-storage"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('webdav.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="public"
        label={t('webdav.public')}
        valuePropName="checked"
        extra={t(anonymous ? 'webdav.publicHelp' : 'webdav.publicHelpOff')}
      >
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}

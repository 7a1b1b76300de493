// Add or edit a user: name, password (required for a new user; left empty it keeps the stored one,
// which is never shown), switch, and per mount no access, read-only or read-write.
import {
  isDavUserName,
  WEBDAV_LIMITS as L,
  type WebdavMount,
  type WebdavUserInput,
  type WebdavUserView,
} from '@lucky/shared';
import { Form, Input, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { addUser, updateUser } from './api';

export interface UserDialogProps {
  open: boolean;
  /** undefined: a new user. */
  user?: WebdavUserView;
  mounts: WebdavMount[];
  onClose: () => void;
  onSaved: () => void;
}

/** The form's access value: '' for none (a Select needs a value for it). */
type Level = '' | 'ro' | 'rw';
interface Values {
  name: string;
  password: string;
  enabled: boolean;
  access: Record<string, Level>;
}

export function UserDialog({ open, user, mounts, onClose, onSaved }: UserDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const errors = useFormErrors(form, {
    ns: 'webdav',
    // `users.2.name` → name; `access.<mount key>` stays as it is.
    nameOf: (field) => {
      const parts = field.replace(/^users\.\d+\./, '').split('.');
      if (parts[0] === 'access' && parts[1]) return ['access', parts[1]];
      return ['name', 'password', 'enabled'].includes(parts[0]) ? [parts[0]] : undefined;
    },
  });
  const initial: Values = {
    name: user?.name ?? '',
    // Empty: the stored password stays (it is never read back).
    password: '',
    enabled: user?.enabled ?? true,
    access: Object.fromEntries(mounts.map((m) => [m.key, (user?.access[m.key] ?? '') as Level])),
  };
  const save: SaveHandler = async (saved) => {
    const v = form.getFieldsValue(true) as Values;
    const access = Object.fromEntries(Object.entries(v.access ?? {}).filter(([, level]) => level !== '')) as Record<
      string,
      'ro' | 'rw'
    >;
    const body: WebdavUserInput = { name: v.name, password: v.password ?? '', enabled: v.enabled, access };
    if (user) await updateUser(user.key, body);
    else await addUser(body);
    saved(t('webdav.saved'));
    onSaved();
  };
  const levels = [
    { value: '', label: t('webdav.access_none') },
    { value: 'ro', label: t('webdav.access_ro') },
    { value: 'rw', label: t('webdav.access_rw') },
  ];
  return (
    <FormDialog<Values>
      open={open}
      title={t(user ? 'webdav.editUser' : 'webdav.addUser')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="webdav-user"
      width={600}
      initialValues={initial}
    >
      <Form.Item
        name="name"
        label={t('webdav.userName')}
        rules={[
          { required: true, whitespace: true, message: t('webdav.err_userNameRequired') },
          {
            validator: (_, v: string) =>
              !v?.trim() || isDavUserName(v.trim())
                ? Promise.resolve()
                : Promise.reject(new Error(t('webdav.err_userNameInvalid'))),
          },
        ]}
      >
        <Input maxLength={L.name.max} autoComplete="off" data-testid="webdav-user-name" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('webdav.password')}
        extra={user ? t('webdav.passwordKeep') : t('webdav.passwordHelp', { min: L.password.min })}
        rules={[
          { required: !user, message: t('webdav.err_passwordRequired') },
          {
            validator: (_, v: string) =>
              !v || v.length >= L.password.min
                ? Promise.resolve()
                : Promise.reject(new Error(t('webdav.err_passwordTooShort', { min: L.password.min }))),
          },
        ]}
      >
        <Input.Password maxLength={L.password.max} autoComplete="new-password" data-testid="webdav-user-password" />
      </Form.Item>
      <Form.Item name="enabled" label={t('webdav.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Typography.Text strong>{t('webdav.accessTitle')}</Typography.Text>
      {mounts.length === 0 && (
        <Typography.Paragraph type="secondary">{t('webdav.accessNoMounts')}</Typography.Paragraph>
      )}
      {mounts.map((m) => (
        <Form.Item key={m.key} name={['access', m.key]} label={<span className="mono">/{m.name}</span>}>
          <Select options={levels} style={{ maxWidth: 240 }} data-testid={`webdav-access-${m.name}`} />
        </Form.Item>
      ))}
    </FormDialog>
  );
}

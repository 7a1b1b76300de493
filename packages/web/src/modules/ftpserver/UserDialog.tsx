// Add or edit a user: the login name, a switch, the password (never the stored one: an empty box
// keeps it) and per mount read-write, read-only or no access. Checked with the server's schema
// before sending; a refusal lands beside its field.
import { FTPSERVER_LIMITS, type FtpserverMountView, type FtpserverUserView } from '@lucky/shared';
import { Empty, Form, Input, Radio, Switch, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { failureText, useFormErrors } from '../../hooks/useFormErrors';
import { createUser, updateUser } from './api';
import {
  ACCESS_CHOICES,
  checkUser,
  hasPassword,
  type UserFormValues,
  userFieldOf,
  userToValues,
  valuesToInput,
} from './userForm';

export interface UserDialogProps {
  open: boolean;
  user?: FtpserverUserView;
  mounts: readonly FtpserverMountView[];
  /** Names of the other users (a name is taken once, case-insensitively). */
  otherNames: readonly string[];
  onClose: () => void;
  onSaved: () => void;
}

export function UserDialog({ open, user, mounts, otherNames, onClose, onSaved }: UserDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserFormValues>();
  const errors = useFormErrors(form, { ns: 'ftpserver', nameOf: userFieldOf });
  const stored = hasPassword(user);

  const problems = () => checkUser(valuesToInput(form.getFieldsValue(true), user), otherNames, user);
  /** One field through the same checks as a save. */
  const fieldRule = (field: 'name' | 'password'): Rule => ({
    validator: () => {
      const issue = problems().find((i) => i.field === field);
      return issue ? Promise.reject(new Error(failureText(t, 'ftpserver', issue))) : Promise.resolve();
    },
  });

  const save: SaveHandler = async (saved) => {
    const local = problems();
    if (local.length > 0) return local;
    const input = valuesToInput(form.getFieldsValue(true), user);
    if (user) await updateUser(user.key, input);
    else await createUser(input);
    saved(t('ftpserver.userSaved'));
    onSaved();
  };

  return (
    <FormDialog<UserFormValues>
      open={open}
      title={t(user ? 'ftpserver.editUser' : 'ftpserver.addUser')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="ftp-user"
      width={620}
      initialValues={userToValues(
        user,
        mounts.map((m) => m.key),
      )}
    >
      <Form.Item
        name="name"
        label={t('ftpserver.userName')}
        extra={t('ftpserver.userNameHelp')}
        rules={[fieldRule('name')]}
      >
        <Input maxLength={FTPSERVER_LIMITS.name.max} autoComplete="off" data-testid="ftp-user-name" />
      </Form.Item>
      <Form.Item name="enabled" label={t('ftpserver.userEnabled')} valuePropName="checked">
        <Switch data-testid="ftp-user-enabled" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('ftpserver.password')}
        extra={t(stored ? 'ftpserver.passwordKeepHelp' : 'ftpserver.passwordNewHelp')}
        rules={[fieldRule('password')]}
      >
        <Input.Password
          autoComplete="new-password"
          placeholder={stored ? t('ftpserver.passwordUnchanged') : undefined}
          data-testid="ftp-user-password"
        />
      </Form.Item>
      <Form.Item label={t('ftpserver.access')} extra={t('ftpserver.accessHelp')} className="ftp-access-item">
        {mounts.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ftpserver.noMountsForUser')} />
        ) : (
          <div className="ftp-access-list">
            {mounts.map((m) => (
              <div key={m.key} className="ftp-access-row">
                <span className="ftp-access-mount">
                  <span className="mono">/{m.name}</span>
                  {m.storageReadOnly && <Tag>{t('ftpserver.storageReadOnly')}</Tag>}
                </span>
                <Form.Item name={['access', m.key]} noStyle>
                  <Radio.Group
                    optionType="button"
                    size="small"
                    options={ACCESS_CHOICES.map((a) => ({
                      value: a,
                      label: t(`ftpserver.access_${a}`),
                      // A read-only storage refuses writes whatever the user may do: rw would mislead.
                      disabled: a === 'rw' && m.storageReadOnly,
                    }))}
                    data-testid={`ftp-user-access-${m.key}`}
                  />
                </Form.Item>
              </div>
            ))}
          </div>
        )}
      </Form.Item>
    </FormDialog>
  );
}

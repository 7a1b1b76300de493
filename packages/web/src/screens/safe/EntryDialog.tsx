// Add or edit one entry of the allow or block list: the value (address, CIDR or range, checked
// here with the server's own check), a comment and an expiry (never, a span, or a time in the
// display zone). A refusal lands beside its field; the lock-out refusal (the entry would shut the
// admin out) stands at the top of the dialog with the admin's own address.
import type { SafeEntry, SafeList } from '@lucky/shared';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDisplayTimeZone } from '../../components/time';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { useFormErrors } from '../../hooks/useFormErrors';
import {
  commentMax,
  type EntryValues,
  EXPIRY_CHOICES,
  entryInput,
  entryValueRule,
  entryValues,
  wallClockToUtc,
} from './entryForm';
import { type LockOut, LockOutAlert } from './LockOutAlert';
import { addEntry, editEntry, lockOutOf } from './safeApi';

export interface EntryDialogProps {
  list: SafeList;
  /** Open for a new entry (`null`) or this one; closed when undefined. */
  entry: SafeEntry | null | undefined;
  onClose: () => void;
  /** After the server stored it. */
  onSaved: () => void;
}

const FIELDS = ['value', 'comment', 'expiresAt'];

export function EntryDialog({ list, entry, onClose, onSaved }: EntryDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<EntryValues>();
  const [saving, setSaving] = useState(false);
  const [lockOut, setLockOut] = useState<LockOut>();
  const layout = useDialogLayout(560);
  const zone = useDisplayTimeZone();
  const open = entry !== undefined;
  const errors = useFormErrors(form, {
    ns: 'safe',
    nameOf: (field) => (FIELDS.includes(field) ? [field === 'expiresAt' ? 'expiry' : field] : undefined),
  });
  const expiry = Form.useWatch('expiry', form);

  useEffect(() => {
    if (open) {
      form.setFieldsValue(entryValues(entry ?? undefined));
      setLockOut(undefined);
    }
  }, [open, entry, form]);

  const submit = async () => {
    if (!(await errors.validate())) return;
    const values = form.getFieldsValue() as EntryValues;
    setSaving(true);
    setLockOut(undefined);
    try {
      const body = entryInput(values, Date.now());
      if (entry) await editEntry(list, entry.key, body);
      else await addEntry(list, body);
      errors.clear();
      void message.success(entry ? t('safe.lists_saved') : t('safe.lists_added'));
      onSaved();
    } catch (err) {
      const locked = lockOutOf(err);
      if (locked) setLockOut(locked);
      else errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  const title = t(entry ? 'safe.lists_editTitle' : 'safe.lists_addTitle', { list: t(`safe.lists_${list}`) });
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={layout.className}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving} data-testid="safe-entry-cancel">
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="safe-entry-save">
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form<EntryValues>
        form={form}
        layout="vertical"
        initialValues={entryValues()}
        onValuesChange={(changed) => {
          errors.onValuesChange(changed);
          setLockOut(undefined);
        }}
        data-testid="safe-entry-form"
      >
        {lockOut && <LockOutAlert lockOut={lockOut} />}
        <Form.Item
          name="value"
          label={t('safe.lists_value')}
          extra={t('safe.lists_valueHelp')}
          required
          rules={[entryValueRule(t)]}
        >
          <Input className="mono" placeholder="203.0.113.7" autoFocus data-testid="safe-entry-value" />
        </Form.Item>
        <Form.Item name="comment" label={t('safe.lists_comment')}>
          <Input maxLength={commentMax} allowClear data-testid="safe-entry-comment" />
        </Form.Item>
        <Form.Item name="expiry" label={t('safe.lists_expiry')}>
          <Select
            options={EXPIRY_CHOICES.map((c) => ({ value: c, label: t(`safe.lists_expiry_${c}`) }))}
            style={{ maxWidth: 240 }}
            data-testid="safe-entry-expiry"
          />
        </Form.Item>
        {expiry === 'custom' && (
          <Form.Item
            name="expiryDate"
            label={t('safe.lists_expiryDate')}
            extra={<Typography.Text type="secondary">{t('safe.lists_expiryZone', { zone })}</Typography.Text>}
            rules={[
              { required: true, message: t('safe.lists_expiryDateRequired') },
              {
                validator: (_, v: EntryValues['expiryDate']) =>
                  !v || wallClockToUtc(v, zone) > Date.now()
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('safe.err_expiryPast'))),
              },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="safe-entry-expiry-date" />
          </Form.Item>
        )}
        <Alert type="info" showIcon title={t(list === 'block' ? 'safe.lists_blockNote' : 'safe.lists_allowNote')} />
      </Form>
    </Modal>
  );
}

// Changing a share link: password (kept as long as the masked value stays, removed when emptied),
// expiry, download limit, note. Only what changed is sent.
import { FILEBROWSER_LIMITS, type FilebrowserSharePatch, type FilebrowserShareView, SECRET_MASK } from '@lucky/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Form, Modal } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { useFormErrors } from '../../hooks/useFormErrors';
import { filebrowserKeys, updateShare } from './api';
import { ShareFields, type ShareFormValues, shareFieldOf } from './ShareFields';
import { expiryOf } from './shareExpiry';

export function ShareEditDialog({ share, onClose }: { share: FilebrowserShareView; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const layout = useDialogLayout(560);
  const [form] = Form.useForm<ShareFormValues>();
  const [saving, setSaving] = useState(false);
  const errors = useFormErrors(form, { ns: 'filebrowser', nameOf: shareFieldOf });
  // A link with an expiry shows it as a custom date: "unchanged" sends nothing.
  const initial: ShareFormValues = {
    password: share.password,
    expiry: share.expiresAt > 0 ? 'custom' : 'never',
    expiryDate: share.expiresAt > 0 ? dayjs(share.expiresAt) : null,
    maxDownloads: share.maxDownloads,
    note: share.note,
  };

  const submit = async () => {
    if (!(await errors.validate())) return;
    const v = form.getFieldsValue(true) as ShareFormValues;
    const patch: FilebrowserSharePatch = {};
    if ((v.password ?? '') !== share.password) patch.password = v.password ?? '';
    const sameDay = v.expiry === 'custom' && share.expiresAt > 0 && v.expiryDate?.isSame(dayjs(share.expiresAt), 'day');
    if (!sameDay) {
      const expiresAt = expiryOf(v.expiry, v.expiryDate, Date.now());
      if (expiresAt !== share.expiresAt) patch.expiresAt = expiresAt;
    }
    if (v.maxDownloads !== share.maxDownloads) patch.maxDownloads = v.maxDownloads;
    if ((v.note ?? '').trim() !== share.note) patch.note = (v.note ?? '').trim();
    if (Object.keys(patch).length === 0) return onClose();
    setSaving(true);
    try {
      await updateShare(share.key, patch);
      errors.clear();
      void message.success(t('filebrowser.share_updated'));
      await qc.invalidateQueries({ queryKey: filebrowserKeys.shares });
      onClose();
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('filebrowser.share_editTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, 'data-testid': 'fb-share-edit-save' }}
      width={layout.width}
      style={layout.style}
      className={layout.className}
      destroyOnHidden
      maskClosable={false}
      data-testid="fb-share-edit"
    >
      <Form<ShareFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onValuesChange={errors.onValuesChange}
      >
        <ShareFields
          passwordHelp={t(
            share.password === SECRET_MASK ? 'filebrowser.share_passwordKeepHelp' : 'filebrowser.share_passwordHelp',
            {
              min: FILEBROWSER_LIMITS.sharePassword.min,
            },
          )}
        />
      </Form>
    </Modal>
  );
}

// Changing a share link: password (kept as long as the masked value stays, removed when emptied),
// expiry, download limit, note. Only what changed is sent.
import { FILEBROWSER_LIMITS, type FilebrowserSharePatch, type FilebrowserShareView, SECRET_MASK } from '@lucky/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { filebrowserKeys, updateShare } from './api';
import { ShareFields, type ShareFormValues, shareFieldOf } from './ShareFields';
import { expiryOf } from './shareExpiry';

export function ShareEditDialog({ share, onClose }: { share: FilebrowserShareView; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<ShareFormValues>();
  const errors = useFormErrors(form, { ns: 'filebrowser', nameOf: shareFieldOf });
  // A link with an expiry shows it as a custom date: "unchanged" sends nothing.
  const initial: ShareFormValues = {
    password: share.password,
    expiry: share.expiresAt > 0 ? 'custom' : 'never',
    expiryDate: share.expiresAt > 0 ? dayjs(share.expiresAt) : null,
    maxDownloads: share.maxDownloads,
    note: share.note,
  };

  const save: SaveHandler = async (saved) => {
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
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    await updateShare(share.key, patch);
    saved(t('filebrowser.share_updated'));
    await qc.invalidateQueries({ queryKey: filebrowserKeys.shares });
    onClose();
  };

  return (
    <FormDialog<ShareFormValues>
      open
      title={t('filebrowser.share_editTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="fb-share-edit"
      modalTestId="fb-share-edit"
      width={560}
      initialValues={initial}
    >
      <ShareFields
        passwordHelp={t(
          share.password === SECRET_MASK ? 'filebrowser.share_passwordKeepHelp' : 'filebrowser.share_passwordHelp',
          {
            min: FILEBROWSER_LIMITS.sharePassword.min,
          },
        )}
      />
    </FormDialog>
  );
}

// Making a share link for a file or folder: password, expiry, download limit, note; then the full
// link to copy. The link is this console's address, so it works from outside the LAN only when
// the setting allows that and the console is reachable from there (port forwarding, DDNS …).
// Not on components/form/FormDialog: a save turns this dialog into its result (the link, with one
// "done" button instead of cancel / create), which that frame has no place for.
import { FILEBROWSER_LIMITS, type FilebrowserShareView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { useFormErrors } from '../../hooks/useFormErrors';
import { createShare, fetchSettings, filebrowserKeys, shareLink } from './api';
import { ShareFields, type ShareFormValues, shareFieldOf } from './ShareFields';
import { expiryOf } from './shareExpiry';
import './parts.css';

export interface ShareDialogProps {
  storage: string;
  path: string;
  kind: 'file' | 'dir';
  onClose: () => void;
}

const INITIAL: ShareFormValues = { password: '', expiry: '7d', expiryDate: null, maxDownloads: 0, note: '' };

export function ShareDialog({ storage, path, kind, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const layout = useDialogLayout(560);
  const [form] = Form.useForm<ShareFormValues>();
  const [saving, setSaving] = useState(false);
  const [made, setMade] = useState<FilebrowserShareView | undefined>(undefined);
  const errors = useFormErrors(form, { ns: 'filebrowser', nameOf: shareFieldOf });
  // Whether the link answers outside the LAN at all is a setting: say which way it is set.
  const settings = useQuery({ queryKey: filebrowserKeys.settings, queryFn: ({ signal }) => fetchSettings(signal) });
  const lanOnly = settings.data?.settings.sharesOutsideLan === false;

  const submit = async () => {
    if (!(await errors.validate())) return;
    const v = form.getFieldsValue(true) as ShareFormValues;
    setSaving(true);
    try {
      const res = await createShare({
        storage,
        path,
        password: v.password ?? '',
        expiresAt: expiryOf(v.expiry, v.expiryDate, Date.now()),
        maxDownloads: v.maxDownloads ?? 0,
        note: v.note ?? '',
      });
      errors.clear();
      setMade(res.share);
      await qc.invalidateQueries({ queryKey: filebrowserKeys.shares });
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  const title = t(kind === 'dir' ? 'filebrowser.share_titleDir' : 'filebrowser.share_titleFile');
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={layout.className}
      destroyOnHidden
      maskClosable={false}
      data-testid="fb-share-dialog"
      footer={
        made ? (
          <Button type="primary" onClick={onClose} data-testid="fb-share-done">
            {t('filebrowser.share_done')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void submit()} data-testid="fb-share-create">
              {t('filebrowser.share_create')}
            </Button>
          </Space>
        )
      }
    >
      <Typography.Paragraph className="fb-preview-title" type="secondary" data-testid="fb-share-target">
        {path}
      </Typography.Paragraph>
      {made ? (
        <div data-testid="fb-share-made">
          <Typography.Paragraph>{t('filebrowser.share_madeText')}</Typography.Paragraph>
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={shareLink(made.url)} className="fb-share-link" data-testid="fb-share-link" />
            <CopyButton text={shareLink(made.url)} data-testid="fb-share-copy" />
          </Space.Compact>
          <Alert
            type={lanOnly ? 'warning' : 'info'}
            showIcon
            style={{ marginTop: 12 }}
            title={t(lanOnly ? 'filebrowser.share_lanOnlyHelp' : 'filebrowser.share_reachHelp')}
            data-testid="fb-share-reach"
          />
        </div>
      ) : (
        <Form<ShareFormValues>
          form={form}
          layout="vertical"
          initialValues={INITIAL}
          onValuesChange={errors.onValuesChange}
          onFinish={() => void submit()}
        >
          <ShareFields
            passwordHelp={t('filebrowser.share_passwordHelp', { min: FILEBROWSER_LIMITS.sharePassword.min })}
          />
        </Form>
      )}
    </Modal>
  );
}

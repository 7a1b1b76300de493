// The fields a share link is made or changed with: password, expiry, download limit and note.
// Used by the share dialog (a new link) and the shares panel's edit dialog.
import { FILEBROWSER_LIMITS as L, SECRET_MASK } from '@lucky/shared';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { numberRangeRule } from '../../components/numberRangeRule';
import { EXPIRY_CHOICES, type ExpiryChoice } from './shareExpiry';

export interface ShareFormValues {
  password: string;
  expiry: ExpiryChoice;
  expiryDate: Dayjs | null;
  maxDownloads: number;
  note: string;
}

/** The form items of ShareFormValues, with their client-side checks (the server checks again). */
export function ShareFields({ passwordHelp }: { passwordHelp: string }) {
  const { t } = useTranslation();
  const expiry = Form.useWatch<ExpiryChoice | undefined>('expiry');
  return (
    <>
      <Form.Item
        name="password"
        label={t('filebrowser.share_password')}
        extra={passwordHelp}
        rules={[
          {
            validator: (_, v: string | undefined) =>
              !v || v === SECRET_MASK || v.length >= L.sharePassword.min
                ? Promise.resolve()
                : Promise.reject(new Error(t('filebrowser.err_sharePasswordTooShort', { min: L.sharePassword.min }))),
          },
        ]}
      >
        <Input.Password maxLength={L.sharePassword.max} autoComplete="new-password" data-testid="fb-share-password" />
      </Form.Item>
      <Form.Item name="expiry" label={t('filebrowser.share_expiry')}>
        <Select
          options={EXPIRY_CHOICES.map((c) => ({ value: c, label: t(`filebrowser.share_expiry_${c}`) }))}
          style={{ maxWidth: 240 }}
          data-testid="fb-share-expiry"
        />
      </Form.Item>
      {expiry === 'custom' && (
        <Form.Item
          name="expiryDate"
          label={t('filebrowser.share_expiryDate')}
          rules={[{ required: true, message: t('filebrowser.share_expiryDateRequired') }]}
        >
          <DatePicker
            disabledDate={(d) => d.endOf('day').valueOf() < Date.now()}
            style={{ maxWidth: 240 }}
            data-testid="fb-share-expiry-date"
          />
        </Form.Item>
      )}
      <Form.Item
        name="maxDownloads"
        label={t('filebrowser.share_maxDownloads')}
        extra={t('filebrowser.share_maxDownloadsHelp')}
        rules={[numberRangeRule(t, L.maxDownloads.min, L.maxDownloads.max)]}
      >
        <InputNumber<number> precision={0} style={{ width: 160 }} data-testid="fb-share-max" />
      </Form.Item>
      <Form.Item name="note" label={t('filebrowser.share_note')}>
        <Input maxLength={L.shareNote.max} data-testid="fb-share-note" />
      </Form.Item>
    </>
  );
}

/** Which form item a server field of a share call lands on. */
export function shareFieldOf(field: string): string[] | undefined {
  if (field === 'expiresAt') return ['expiry'];
  return ['password', 'maxDownloads', 'note'].includes(field) ? [field] : undefined;
}

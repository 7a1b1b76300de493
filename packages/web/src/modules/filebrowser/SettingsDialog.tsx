// The file manager's settings (the module switch is the screen's, not here): trash, thumbnails and
// their cache, share links (outside the LAN, password lock-out), how long unfinished uploads stay.
// Only what changed is sent; a refused value lands beside its field in the user's language.
import { type FilebrowserSettings, FILEBROWSER_LIMITS as L } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Divider, Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, queryLoad, type SaveHandler } from '../../components/form/FormDialog';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useFormErrors } from '../../hooks/useFormErrors';
import { fetchSettings, filebrowserKeys, saveSettings } from './api';
import { errorText } from './errors';

type Editable = Omit<FilebrowserSettings, 'enabled'>;
const FIELDS: (keyof Editable)[] = [
  'trash',
  'thumbnails',
  'thumbnailCacheMb',
  'thumbnailWorkers',
  'sharesOutsideLan',
  'sharePasswordMaxFailures',
  'sharePasswordLockMinutes',
  'uploadExpiryHours',
];

export function SettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<Editable>();
  const query = useQuery({
    queryKey: filebrowserKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    enabled: open,
  });
  const loaded = query.data?.settings;
  const errors = useFormErrors(form, {
    ns: 'filebrowser',
    nameOf: (field) => (FIELDS.includes(field as keyof Editable) ? [field] : undefined),
  });
  const thumbnails = Form.useWatch('thumbnails', form) ?? loaded?.thumbnails;

  const save: SaveHandler = async (saved) => {
    if (!loaded) return;
    const values = form.getFieldsValue(true) as Editable;
    const changes: Record<string, unknown> = {};
    for (const f of FIELDS) if (values[f] !== loaded[f]) changes[f] = values[f];
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    const res = await saveSettings(changes);
    saved(t('filebrowser.settings_saved'));
    qc.setQueryData(filebrowserKeys.settings, res);
    onClose();
  };

  const num = (r: { min: number; max: number }) => [numberRangeRule(t, r.min, r.max)];
  return (
    <FormDialog<Editable>
      open={open}
      title={t('filebrowser.settings_title')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="fb-settings"
      modalTestId="fb-settings"
      width={620}
      load={queryLoad(query, (err) => ({ title: errorText(err, t) }))}
      initialValues={loaded}
      submitOnEnter
    >
      <Form.Item
        name="trash"
        label={t('filebrowser.settings_trash')}
        valuePropName="checked"
        extra={t('filebrowser.settings_trashHelp')}
      >
        <Switch data-testid="fb-settings-trash" />
      </Form.Item>
      <Divider titlePlacement="start">{t('filebrowser.settings_thumbnailsSection')}</Divider>
      <Form.Item name="thumbnails" label={t('filebrowser.settings_thumbnails')} valuePropName="checked">
        <Switch data-testid="fb-settings-thumbnails" />
      </Form.Item>
      <Form.Item
        name="thumbnailCacheMb"
        label={t('filebrowser.settings_thumbnailCacheMb')}
        hidden={!thumbnails}
        rules={num(L.thumbnailCacheMb)}
      >
        <InputNumber<number> precision={0} suffix="MB" style={{ width: 180 }} data-testid="fb-settings-cache" />
      </Form.Item>
      <Form.Item
        name="thumbnailWorkers"
        label={t('filebrowser.settings_thumbnailWorkers')}
        extra={t('filebrowser.settings_thumbnailWorkersHelp')}
        hidden={!thumbnails}
        rules={num(L.thumbnailWorkers)}
      >
        <InputNumber<number> precision={0} style={{ width: 180 }} data-testid="fb-settings-workers" />
      </Form.Item>
      <Divider titlePlacement="start">{t('filebrowser.settings_sharesSection')}</Divider>
      <Form.Item
        name="sharesOutsideLan"
        label={t('filebrowser.settings_sharesOutsideLan')}
        valuePropName="checked"
        extra={t('filebrowser.settings_sharesOutsideLanHelp')}
      >
        <Switch data-testid="fb-settings-outside" />
      </Form.Item>
      <Form.Item
        name="sharePasswordMaxFailures"
        label={t('filebrowser.settings_sharePasswordMaxFailures')}
        rules={num(L.sharePasswordMaxFailures)}
      >
        <InputNumber<number> precision={0} style={{ width: 180 }} data-testid="fb-settings-failures" />
      </Form.Item>
      <Form.Item
        name="sharePasswordLockMinutes"
        label={t('filebrowser.settings_sharePasswordLockMinutes')}
        rules={num(L.sharePasswordLockMinutes)}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.unitMinutes')}
          style={{ width: 180 }}
          data-testid="fb-settings-lock"
        />
      </Form.Item>
      <Divider titlePlacement="start">{t('filebrowser.settings_uploadsSection')}</Divider>
      <Form.Item
        name="uploadExpiryHours"
        label={t('filebrowser.settings_uploadExpiryHours')}
        extra={t('filebrowser.settings_uploadExpiryHoursHelp')}
        rules={num(L.uploadExpiryHours)}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.unitHours')}
          style={{ width: 180 }}
          data-testid="fb-settings-upload-expiry"
        />
      </Form.Item>
    </FormDialog>
  );
}

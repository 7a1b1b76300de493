// The knock URL (`?tab=knock`): opening `<admin origin>/knock/<secret path>` (with the password,
// when one is set) puts the caller's address on the allow list for some hours. Here: the switch,
// the URL to copy, a new path (the old URL stops working), the password (never shown: set, or
// cleared) and the hours.
import { ReloadOutlined } from '@ant-design/icons';
import { SAFE_LIMITS as L, type SafeSettingsPatch, type SafeSettingsView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useFormErrors } from '../../hooks/useFormErrors';
import { fetchSafe, knockUrl, randomKnockPath, safeKeys, saveSafeSettings } from './safeApi';

interface KnockValues {
  enabled: boolean;
  hours: number;
  /** '' keeps the stored password. */
  password: string;
}

export function KnockTab() {
  const { t } = useTranslation();
  const safe = useQuery({ queryKey: safeKeys.all, queryFn: ({ signal }) => fetchSafe(signal) });
  if (safe.isPending) return <Skeleton active />;
  if (!safe.data) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('safe.lists_loadFailed')} />;
  return <KnockCard knock={safe.data.settings.knock} />;
}

function KnockCard({ knock }: { knock: SafeSettingsView['knock'] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<KnockValues>();
  const [busy, setBusy] = useState<'save' | 'path' | 'clear'>();
  const errors = useFormErrors(form, {
    ns: 'safe',
    nameOf: (field) => {
      const last = field.split('.').pop() ?? '';
      return ['enabled', 'hours', 'password'].includes(last) ? [last] : undefined;
    },
  });
  const url = knock.path ? knockUrl(window.location.origin, knock.path) : '';

  useEffect(() => {
    form.setFieldsValue({ enabled: knock.enabled, hours: knock.hours, password: '' });
  }, [knock, form]);

  const send = async (what: 'save' | 'path' | 'clear', patch: SafeSettingsPatch['knock'], done: string) => {
    setBusy(what);
    try {
      await saveSafeSettings({ knock: patch });
      errors.clear();
      void message.success(done);
      await qc.invalidateQueries({ queryKey: safeKeys.all });
      return true;
    } catch (err) {
      errors.show(err);
      return false;
    } finally {
      setBusy(undefined);
    }
  };

  const save = async (v: KnockValues) => {
    const patch: SafeSettingsPatch['knock'] = { enabled: v.enabled, hours: v.hours };
    // Switched on without a path yet: one is drawn here, so the URL shows at once.
    if (v.enabled && !knock.path) patch.path = randomKnockPath();
    if (v.password) patch.password = v.password;
    await send('save', patch, t('set.saved'));
  };

  return (
    <Card title={t('safe.knock_title')} data-testid="safe-knock-card">
      <Typography.Paragraph type="secondary">{t('safe.knock_intro')}</Typography.Paragraph>
      <Form<KnockValues>
        form={form}
        layout="vertical"
        initialValues={{ enabled: knock.enabled, hours: knock.hours, password: '' }}
        onFinish={save}
        onValuesChange={errors.onValuesChange}
        style={{ maxWidth: 720 }}
      >
        <Form.Item name="enabled" label={t('safe.knock_enabled')} valuePropName="checked">
          <Switch data-testid="safe-knock-enabled" />
        </Form.Item>
        <div className="safe-knock-url">
          <Typography.Text strong>{t('safe.knock_url')}</Typography.Text>
          {url ? (
            <Space wrap size={4} align="center">
              <Typography.Text code className="mono safe-knock-link" data-testid="safe-knock-url">
                {url}
              </Typography.Text>
              {!knock.enabled && <Tag data-testid="safe-knock-url-off">{t('safe.knock_urlOff')}</Tag>}
              <CopyButton text={url} label={t('safe.knock_copy')} size="small" data-testid="safe-knock-copy" />
              <Popconfirm
                title={t('safe.knock_newPathConfirm')}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                onConfirm={() => send('path', { path: randomKnockPath() }, t('safe.knock_newPathDone'))}
              >
                <Button
                  size="small"
                  icon={<ReloadOutlined />}
                  loading={busy === 'path'}
                  data-testid="safe-knock-new-path"
                >
                  {t('safe.knock_newPath')}
                </Button>
              </Popconfirm>
            </Space>
          ) : (
            <Typography.Text type="secondary" data-testid="safe-knock-no-url">
              {t('safe.knock_noUrl')}
            </Typography.Text>
          )}
        </div>
        <Alert type="info" showIcon style={{ margin: '12px 0 24px' }} title={t('safe.knock_reachNote')} />
        <Form.Item
          name="hours"
          label={t('safe.knock_hours')}
          extra={t('safe.knock_hoursHelp')}
          rules={[numberRangeRule(t, L.knockHours.min, L.knockHours.max)]}
        >
          <InputNumber<number>
            precision={0}
            style={{ width: 160 }}
            suffix={t('common.unitHours')}
            data-testid="safe-knock-hours"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={
            <Space size={8}>
              {t('safe.knock_password')}
              {knock.hasPassword ? (
                <Tag color="success" data-testid="safe-knock-has-password">
                  {t('safe.knock_passwordSet')}
                </Tag>
              ) : (
                <Tag data-testid="safe-knock-no-password">{t('safe.knock_passwordNone')}</Tag>
              )}
            </Space>
          }
          extra={t(knock.hasPassword ? 'safe.knock_passwordKeep' : 'safe.knock_passwordHelp')}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                !v || v.length >= L.knockPassword.min
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('safe.err_knockPasswordTooShort', { min: L.knockPassword.min }))),
            },
          ]}
        >
          <Input.Password
            maxLength={L.knockPassword.max}
            autoComplete="new-password"
            style={{ maxWidth: 320 }}
            data-testid="safe-knock-password"
          />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={busy === 'save'} data-testid="safe-knock-save">
            {t('common.save')}
          </Button>
          {knock.hasPassword && (
            <Popconfirm
              title={t('safe.knock_clearPasswordConfirm')}
              okText={t('common.confirm')}
              cancelText={t('common.cancel')}
              onConfirm={() => send('clear', { password: '' }, t('safe.knock_passwordCleared'))}
            >
              <Button loading={busy === 'clear'} data-testid="safe-knock-clear-password">
                {t('safe.knock_clearPassword')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Form>
    </Card>
  );
}

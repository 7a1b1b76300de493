// Auto-ban (`?tab=bans`): addresses that keep failing to log in anywhere (admin, web-service basic
// auth, WebDAV, FTP, share links, the knock password) are refused everywhere for a while. Here:
// its settings and the bans now in force, refreshed every few seconds while the tab is open, with
// unban one / all.
import { SAFE_LIMITS as L, type SafeBanView, type SafeConfig } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  InputNumber,
  Popconfirm,
  Skeleton,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { type HTMLAttributes, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useDisplayTimeZone } from '../../components/time';
import { useFormErrors } from '../../hooks/useFormErrors';
import { scopeName } from './AllowModeCard';
import { fetchBans, fetchSafe, safeKeys, saveSafeSettings, unban, unbanAll } from './safeApi';
import { formatTime } from './time';

/** How often the open tab asks for the bans. */
export const BANS_REFRESH_MS = 3000;

type AutoBan = SafeConfig['autoBan'];

export function BansTab() {
  const { t } = useTranslation();
  const safe = useQuery({ queryKey: safeKeys.all, queryFn: ({ signal }) => fetchSafe(signal) });
  return (
    <div className="safe-lists" data-testid="safe-bans-tab">
      {safe.isPending ? (
        <Skeleton active />
      ) : safe.data ? (
        <AutoBanCard autoBan={safe.data.settings.autoBan} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('safe.lists_loadFailed')} />
      )}
      <BansCard />
    </div>
  );
}

function AutoBanCard({ autoBan }: { autoBan: AutoBan }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<AutoBan>();
  const [saving, setSaving] = useState(false);
  const errors = useFormErrors(form, {
    ns: 'safe',
    nameOf: (field) => {
      const last = field.split('.').pop() ?? '';
      return last in autoBan ? [last] : undefined;
    },
  });
  const enabled = Form.useWatch('enabled', form) ?? autoBan.enabled;

  useEffect(() => {
    form.setFieldsValue(autoBan);
  }, [autoBan, form]);

  const save = async (v: AutoBan) => {
    setSaving(true);
    try {
      await saveSafeSettings({ autoBan: v });
      errors.clear();
      void message.success(t('set.saved'));
      await qc.invalidateQueries({ queryKey: safeKeys.all });
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  const number = (name: 'failures' | 'windowMinutes' | 'banMinutes', unit: string) => (
    <Form.Item
      name={name}
      label={t(`safe.bans_${name}`)}
      extra={t(`safe.bans_${name}Help`)}
      rules={[
        numberRangeRule(
          t,
          L[name === 'failures' ? 'banFailures' : name].min,
          L[name === 'failures' ? 'banFailures' : name].max,
        ),
      ]}
    >
      <InputNumber<number>
        precision={0}
        style={{ width: 160 }}
        suffix={unit}
        disabled={!enabled}
        data-testid={`safe-ban-${name}`}
      />
    </Form.Item>
  );

  return (
    <Card title={t('safe.bans_settingsTitle')} data-testid="safe-autoban-card">
      <Typography.Paragraph type="secondary">{t('safe.bans_intro')}</Typography.Paragraph>
      <Form<AutoBan>
        form={form}
        layout="vertical"
        initialValues={autoBan}
        onFinish={save}
        onValuesChange={errors.onValuesChange}
        style={{ maxWidth: 760 }}
      >
        <Form.Item name="enabled" label={t('safe.bans_enabled')} valuePropName="checked">
          <Switch data-testid="safe-ban-enabled" />
        </Form.Item>
        <div className="safe-ban-numbers">
          {number('failures', t('safe.bans_times'))}
          {number('windowMinutes', t('common.unitMinutes'))}
          {number('banMinutes', t('common.unitMinutes'))}
        </div>
        <Form.Item
          name="banLan"
          label={t('safe.bans_banLan')}
          extra={t('safe.bans_banLanHelp')}
          valuePropName="checked"
        >
          <Switch disabled={!enabled} data-testid="safe-ban-lan" />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="safe-ban-save">
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

function BansCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useDisplayTimeZone();
  const qc = useQueryClient();
  const [busy, setBusy] = useState<string>();
  // Polled only while this tab is mounted (the screen's tabs are destroyed when hidden).
  const bans = useQuery({
    queryKey: safeKeys.bans,
    queryFn: ({ signal }) => fetchBans(signal),
    refetchInterval: BANS_REFRESH_MS,
  });
  const list = bans.data?.bans ?? [];

  const act = async (what: string, run: () => Promise<unknown>, done: string) => {
    setBusy(what);
    try {
      await run();
      void message.success(done);
    } catch {
      // shown by the request client
    } finally {
      setBusy(undefined);
      await qc.invalidateQueries({ queryKey: safeKeys.bans });
    }
  };

  const columns: TableColumnsType<SafeBanView> = [
    { title: t('safe.bans_ip'), dataIndex: 'ip', render: (v: string) => <span className="mono">{v}</span> },
    {
      title: t('safe.bans_since'),
      dataIndex: 'since',
      width: 170,
      render: (v: string) => <span className="safe-time">{formatTime(v)}</span>,
    },
    {
      title: t('safe.bans_until'),
      dataIndex: 'until',
      width: 170,
      render: (v: string) => <span className="safe-time">{formatTime(v)}</span>,
    },
    { title: t('safe.bans_failureCount'), dataIndex: 'failures', width: 90 },
    {
      title: t('safe.bans_sources'),
      dataIndex: 'sources',
      render: (v: SafeBanView['sources']) =>
        v.map((s) => <Tag key={s}>{s === 'knock' ? t('safe.bans_sourceKnock') : scopeName(t, s)}</Tag>),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 100,
      render: (_, b) => (
        <Button
          size="small"
          loading={busy === b.ip}
          onClick={() => act(b.ip, () => unban(b.ip), t('safe.bans_unbanned', { ip: b.ip }))}
          data-testid={`safe-unban-${b.ip}`}
        >
          {t('safe.bans_unban')}
        </Button>
      ),
    },
  ];

  return (
    <Card
      title={
        <span>
          {t('safe.bans_title')}{' '}
          <Typography.Text type="secondary" data-testid="safe-bans-count">
            ({list.length})
          </Typography.Text>
        </span>
      }
      extra={
        <Space>
          <Popconfirm
            title={t('safe.bans_unbanAllConfirm')}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            disabled={list.length === 0}
            onConfirm={() => act('*', unbanAll, t('safe.bans_unbannedAll'))}
          >
            <Button danger disabled={list.length === 0} loading={busy === '*'} data-testid="safe-unban-all">
              {t('safe.bans_unbanAll')}
            </Button>
          </Popconfirm>
        </Space>
      }
      data-testid="safe-bans-card"
    >
      <Table<SafeBanView>
        rowKey="ip"
        size="small"
        loading={bans.isPending}
        dataSource={list}
        columns={columns}
        scroll={{ x: 760 }}
        pagination={list.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        onRow={(b) => ({ 'data-testid': `safe-ban-row-${b.ip}` }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: bans.isPending ? (
            ' '
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('safe.bans_empty')}
              data-testid="safe-bans-empty"
            />
          ),
        }}
      />
    </Card>
  );
}

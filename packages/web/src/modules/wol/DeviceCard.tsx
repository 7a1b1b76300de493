// One device as a card: name, online badge (live), MACs, the checked address, when it was last
// seen; a big Wake button that turns into "waiting…" with the seconds left until the device
// answers or the wait times out, then the result; shutdown (confirmed), the phone shortcut, edit,
// delete and the device's switch. Cards fit a phone, where waking is the main use.
import { DeleteOutlined, EditOutlined, LinkOutlined, PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { WolDeviceView } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { useWindowSize } from '../../hooks/useWindowSize';
import { reasonText } from './errors';
import { ONLINE_COLOR, wakeView } from './format';

export interface DeviceCardProps {
  device: WolDeviceView;
  moduleOn: boolean;
  onWake: () => Promise<unknown>;
  onShutdown: () => Promise<unknown>;
  onToggle: (on: boolean) => unknown;
  onEdit: () => void;
  onShortcut: () => void;
  onDelete: () => unknown;
}

/** Re-renders every second while `on` (the countdown of a wake). */
function useTick(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [on]);
  return on ? now : Date.now();
}

export function DeviceCard({ device: d, moduleOn, ...on }: DeviceCardProps) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const waitingNow = d.state.wake?.phase === 'waiting';
  const now = useTick(waitingNow);
  const wake = wakeView(d.state, now);
  const waiting = wake.phase === 'waiting';
  const online = d.state.online;
  const address = d.check.host
    ? `${d.check.host}${d.check.tcpPort ? `:${d.check.tcpPort}` : ''}`
    : (d.state.ip ?? t('wol.ui_noAddress'));
  const canShutdown = d.shutdown.method !== 'none';
  // On a phone the lesser actions are icons (named for screen readers and by a tooltip), so the row stays one line.
  const phone = useWindowSize().width <= 768;
  const label = (text: string) => (phone ? { 'aria-label': text, title: text } : { children: text });

  const wakeNow = async () => {
    setSending(true);
    try {
      await on.onWake();
    } finally {
      setSending(false);
    }
  };
  const shutdown = async () => {
    setStopping(true);
    try {
      await on.onShutdown();
    } finally {
      setStopping(false);
    }
  };

  return (
    <Card size="small" className={`wol-device wol-device-${online}`} data-testid={`wol-device-${d.key}`}>
      <div className="wol-device-head">
        <div className="wol-device-title">
          <Typography.Text strong className="wol-device-name">
            {d.name}
          </Typography.Text>
          <Tag
            color={ONLINE_COLOR[online]}
            className="wol-online"
            data-testid={`wol-online-${d.key}`}
            data-state={online}
          >
            {t(`wol.ui_online_${online}`)}
          </Tag>
        </div>
        <Switch
          size="small"
          checked={d.enabled}
          onChange={(v) => void on.onToggle(v)}
          aria-label={t('wol.ui_deviceSwitch', { name: d.name })}
          data-testid={`wol-device-switch-${d.key}`}
        />
      </div>

      <dl className="wol-facts">
        <dt>{t('wol.col_macs')}</dt>
        <dd className="mono">
          {d.macs.map((m) => (
            <div key={m} className="wol-mac">
              {m}
            </div>
          ))}
        </dd>
        <dt>{t('wol.col_address')}</dt>
        <dd className="mono">{address}</dd>
        <dt>{t('wol.col_lastSeen')}</dt>
        <dd>
          {d.state.since
            ? t(online === 'online' ? 'wol.ui_onlineSince' : 'wol.ui_offlineSince', {
                time: formatTime(d.state.since),
              })
            : t('wol.ui_neverChecked')}
        </dd>
      </dl>

      <Button
        type="primary"
        size="large"
        block
        className="wol-wake"
        icon={<ThunderboltOutlined />}
        // While the server waits for the device the button spins (and takes no click) in its own colour.
        loading={sending || waiting}
        disabled={!moduleOn || !d.enabled}
        onClick={() => void wakeNow()}
        data-testid={`wol-wake-${d.key}`}
      >
        {waiting ? t('wol.ui_waking', { seconds: wake.secondsLeft }) : t('wol.ui_wake')}
      </Button>
      <div className="wol-wake-result" data-testid={`wol-wake-result-${d.key}`} data-phase={wake.phase}>
        {wake.phase === 'online' && (
          <Typography.Text type="success">
            {wake.seconds !== undefined ? t('wol.ui_wakeOnline', { seconds: wake.seconds }) : t('wol.ui_wakeOnlineNow')}
          </Typography.Text>
        )}
        {wake.phase === 'timeout' && (
          <Typography.Text type="warning">
            {reasonText(d.state.wake?.reason) || t('wol.ui_wakeTimeout')}
          </Typography.Text>
        )}
        {wake.phase === 'failed' && (
          <Typography.Text type="danger">{reasonText(d.state.wake?.reason) || t('wol.ui_wakeFailed')}</Typography.Text>
        )}
        {d.state.lastShutdown && !d.state.lastShutdown.ok && (
          <Typography.Text type="danger">
            {t('wol.ui_shutdownFailed', { name: d.name, reason: reasonText(d.state.lastShutdown.reason) })}
          </Typography.Text>
        )}
      </div>

      <Space wrap size={4} className="wol-device-actions">
        <Popconfirm
          title={t('wol.dialog_shutdownConfirm', { name: d.name })}
          okText={t('wol.ui_shutdown')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => shutdown()}
          disabled={!canShutdown || !moduleOn}
        >
          <Tooltip title={canShutdown ? undefined : t('wol.ui_shutdownNotSet')}>
            <Button
              icon={<PoweroffOutlined />}
              loading={stopping}
              disabled={!canShutdown || !moduleOn}
              data-testid={`wol-shutdown-${d.key}`}
            >
              {t('wol.ui_shutdown')}
            </Button>
          </Tooltip>
        </Popconfirm>
        <Button
          icon={<LinkOutlined />}
          onClick={on.onShortcut}
          data-testid={`wol-shortcut-${d.key}`}
          {...label(t('wol.ui_shortcut'))}
        />
        <Button
          icon={<EditOutlined />}
          onClick={on.onEdit}
          data-testid={`wol-edit-${d.key}`}
          {...label(t('wol.ui_edit'))}
        />
        <Popconfirm
          title={t('wol.dialog_deleteConfirm', { name: d.name })}
          okText={t('wol.ui_delete')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => on.onDelete()}
        >
          <Button danger icon={<DeleteOutlined />} data-testid={`wol-delete-${d.key}`} {...label(t('wol.ui_delete'))} />
        </Popconfirm>
      </Space>
    </Card>
  );
}

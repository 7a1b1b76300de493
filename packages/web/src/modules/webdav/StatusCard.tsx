// The server at a glance: the module switch, its state (or why it does not listen), the address
// clients use, the live figures and the notes (an unavailable storage, no users …). Passwords over
// plain HTTP get their own banner on the screen, not a line here.
import { formatSize, type WebdavStatus } from '@lucky/shared';
import { Card, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Figure, Figures } from '../../components/Figure';
import { formatTime } from '../../components/time';
import { codedText } from '../../i18n/coded';

export interface StatusCardProps {
  enabled: boolean;
  status: WebdavStatus;
  /** The URL clients type (connection help's), shown while listening. */
  url: string;
  onToggle: (on: boolean) => Promise<unknown>;
}

const COLOR = { running: 'success', error: 'error', stopped: 'default' } as const;
const rate = (n: number) => `${formatSize(Math.round(n))}/s`;

export function StatusCard({ enabled, status: s, url, onToggle }: StatusCardProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      await onToggle(on);
    } finally {
      setBusy(false);
    }
  };
  const notes = s.warnings.filter((w) => w.code !== 'plainHttpPasswords');
  return (
    <Card size="small" className="webdav-status" data-testid="webdav-status">
      <div className="webdav-status-head">
        <Space wrap>
          <Switch
            checked={enabled}
            loading={busy}
            onChange={(on) => void toggle(on)}
            aria-label={t('webdav.moduleSwitch')}
            data-testid="webdav-module-switch"
          />
          <span>{t('webdav.moduleSwitch')}</span>
          <Tag color={COLOR[s.state]} data-testid="webdav-state" data-state={s.state}>
            {t(`webdav.state_${s.state}`)}
          </Tag>
          {s.state === 'running' && (
            <Typography.Text copyable className="mono" data-testid="webdav-url">
              {url}
            </Typography.Text>
          )}
        </Space>
      </div>
      {s.reason && (
        <Typography.Text type={s.state === 'error' ? 'danger' : 'secondary'} data-testid="webdav-reason">
          {codedText('webdav', 'reason', s.reason)}
          {s.retryAt ? ` ${t('webdav.retryAt', { time: formatTime(s.retryAt, 'HH:mm:ss') })}` : ''}
        </Typography.Text>
      )}
      <Figures testId="webdav-figures">
        <Figure label={t('webdav.connections')} value={String(s.connections)} testId="webdav-connections" />
        <Figure
          label={t('webdav.requests')}
          value={String(s.requests)}
          sub={`${s.requestRate}/s`}
          testId="webdav-requests"
        />
        <Figure label={t('webdav.bytesIn')} value={formatSize(s.bytesIn)} sub={rate(s.rateIn)} />
        <Figure label={t('webdav.bytesOut')} value={formatSize(s.bytesOut)} sub={rate(s.rateOut)} />
        <Figure label={t('webdav.refused')} value={String(s.refused)} hint={t('webdav.refusedHint')} />
      </Figures>
      {notes.length > 0 && (
        <ul className="webdav-notes" data-testid="webdav-notes">
          {notes.map((w) => (
            <li key={`${w.code}-${JSON.stringify(w.params ?? {})}`}>
              <Typography.Text type="warning">{codedText('webdav', 'reason', w)}</Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

// The server at a glance: the module switch, where it listens, the TLS state, sessions of the
// cap, traffic with the live rates, and logins. What keeps it from working (not listening, no
// certificate, a storage gone) follows as alerts, in the UI language.
import type { Coded, FtpserverSettings, FtpserverStatusView } from '@lucky/shared';
import { Alert, Card, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { codedText } from '../../i18n/coded';
import { rate, size, urlHost } from './format';
import { liveRates } from './transfers';

export interface StatusBarProps {
  status: FtpserverStatusView;
  /** For the TLS mode and the connection cap (undefined while they load). */
  settings?: FtpserverSettings;
  /** Storage management's names by key: a reason about a storage names it as the owner knows it. */
  storageNames?: ReadonlyMap<string, string>;
  onToggleModule: (on: boolean) => Promise<unknown>;
}

export function StatusBar({ status: s, settings, storageNames, onToggleModule }: StatusBarProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      await onToggleModule(on);
    } finally {
      setBusy(false);
    }
  };
  const { rateIn, rateOut } = liveRates(s.sessions);
  const mode = settings?.tls.mode;
  const where = `${s.address ? urlHost(s.address) : '*'}:${s.port}`;
  const reasons = uniqueReasons(s.reasons).map((r) => {
    const key = r.params?.storage;
    const name = typeof key === 'string' ? storageNames?.get(key) : undefined;
    return name ? { ...r, params: { ...r.params, storage: name } } : r;
  });
  return (
    <>
      <Card size="small" className="ftp-status" data-testid="ftp-status">
        <div className="ftp-status-item">
          <span className="ftp-status-label">{t('ftpserver.module')}</span>
          <span className="ftp-status-value">
            <Switch
              checked={s.enabled}
              loading={busy}
              onChange={(on) => void toggle(on)}
              aria-label={t('ftpserver.moduleSwitch')}
              data-testid="ftp-module-switch"
            />
            <Tag color={s.enabled ? 'success' : 'default'}>
              {s.enabled ? t('ftpserver.moduleOn') : t('ftpserver.moduleOff')}
            </Tag>
          </span>
        </div>
        <div className="ftp-status-item" data-testid="ftp-status-listen">
          <span className="ftp-status-label">{t('ftpserver.listen')}</span>
          <span className="ftp-status-value">
            <span className="mono ftp-num">{where}</span>
            {s.enabled && (
              <Tag color={s.listening ? 'success' : 'error'} data-testid="ftp-status-listening">
                {s.listening ? t('ftpserver.listening') : t('ftpserver.notListening')}
              </Tag>
            )}
          </span>
        </div>
        <div className="ftp-status-item" data-testid="ftp-status-tls">
          <span className="ftp-status-label">{t('ftpserver.tls')}</span>
          <span className="ftp-status-value">
            {mode && <Tag color={mode === 'off' ? 'default' : 'blue'}>{t(`ftpserver.tlsMode_${mode}`)}</Tag>}
            {mode && mode !== 'off' && !s.tlsReady && <Tag color="error">{t('ftpserver.noCertificate')}</Tag>}
          </span>
        </div>
        <Item
          label={t('ftpserver.sessions')}
          value={settings ? `${s.sessions.length} / ${settings.maxConnections}` : String(s.sessions.length)}
          testId="ftp-status-sessions"
        />
        <Item label={t('ftpserver.bytesIn')} value={size(s.bytesIn)} sub={rate(rateIn)} testId="ftp-status-in" />
        <Item label={t('ftpserver.bytesOut')} value={size(s.bytesOut)} sub={rate(rateOut)} testId="ftp-status-out" />
        <div className="ftp-status-item" data-testid="ftp-status-logins">
          <span className="ftp-status-label">{t('ftpserver.logins')}</span>
          <span className="ftp-status-value ftp-num">
            {s.logins}
            {s.failedLogins > 0 && (
              <span className="ftp-status-sub ftp-tone-warn">
                {t('ftpserver.failedLogins', { count: s.failedLogins })}
              </span>
            )}
          </span>
        </div>
      </Card>
      {/* While off, the screen's own notice says so (the status's moduleDisabled reason). */}
      {s.enabled &&
        reasons.map((r) => (
          <Alert
            key={`${r.code}-${JSON.stringify(r.params ?? {})}`}
            type={s.listening ? 'warning' : 'error'}
            showIcon
            title={codedText('ftpserver', 'reason', r)}
            data-testid={`ftp-reason-${r.code}`}
          />
        ))}
    </>
  );
}

/** Each reason once (two mounts of one missing storage give the same reason twice). */
function uniqueReasons(list: readonly Coded[]): Coded[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    const id = `${r.code} ${JSON.stringify(r.params ?? {})}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function Item({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId: string }) {
  return (
    <div className="ftp-status-item" data-testid={testId}>
      <span className="ftp-status-label">{label}</span>
      <span className="ftp-status-value ftp-num">
        {value}
        {sub && <span className="ftp-status-sub">{sub}</span>}
      </span>
    </div>
  );
}

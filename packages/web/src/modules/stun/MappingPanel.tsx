// One protocol's mapping of a rule, live: its state since when and why (spec §8: not yet
// obtained, penetration channel malfunction, not penetrated), the public address large and
// copyable, where it comes from, the router's port mappings and the traffic through it.
import type { StunMappingView, StunPortMapView } from '@lucky/shared';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { Figure, Figures } from '../../components/Figure';
import { formatTime } from '../../components/time';
import { codedText } from '../../i18n/coded';
import { rate, size } from './format';
import { MappingStateTag } from './StateTag';

/** Why a mapping is not open, in the UI language ('' when it is). */
export function mappingReason(m: StunMappingView): string {
  if (!m.reason) return m.error ?? '';
  return codedText('stun', 'reason', { ...m.reason, text: m.error });
}

export function MappingPanel({ ruleKey, mapping: m }: { ruleKey: string; mapping: StunMappingView }) {
  const { t } = useTranslation();
  const id = `${ruleKey}-${m.protocol}`;
  const reason = m.state === 'open' ? '' : mappingReason(m);
  // A broken mapping keeps the address it last had: shown, but marked as not current.
  const stale = m.state !== 'open';
  return (
    <div className={`stun-mapping stun-mapping-${m.state}`} data-testid={`stun-mapping-${id}`}>
      <div className="stun-mapping-head">
        <Tag className="stun-proto">{m.protocol.toUpperCase()}</Tag>
        <MappingStateTag state={m.state} testId={`stun-mapping-state-${id}`} />
        {m.since > 0 && (
          <Typography.Text type="secondary" className="stun-since">
            {t('stun.since', { time: formatTime(m.since) })}
          </Typography.Text>
        )}
      </div>

      {m.publicAddress ? (
        <div className={`stun-public${stale ? ' stun-public-stale' : ''}`}>
          <Tooltip title={stale ? t('stun.lastKnownAddress') : t('stun.publicAddressHelp')}>
            <span className="stun-public-address mono" data-testid={`stun-public-${id}`}>
              {m.publicAddress}
            </span>
          </Tooltip>
          <CopyButton text={m.publicAddress} iconOnly label={t('stun.copyAddress')} data-testid={`stun-copy-${id}`} />
        </div>
      ) : (
        <div className="stun-public stun-public-none">{t('stun.noPublicAddress')}</div>
      )}

      {reason && (
        <Typography.Text type={m.state === 'broken' ? 'danger' : 'secondary'} className="stun-mapping-reason">
          <span data-testid={`stun-mapping-reason-${id}`}>{reason}</span>
        </Typography.Text>
      )}

      <Figures>
        <Figure label={t('stun.localPort')} value={`${m.localAddress}:${m.localPort}`} />
        <Figure label={t('stun.server')} value={m.server ?? '—'} />
        <Figure label={t('stun.lastCheck')} value={formatTime(m.lastCheck, 'HH:mm:ss', '—')} />
        <Figure label={t('stun.changes')} hint={t('stun.changesHelp')} value={String(m.changes)} />
        <Figure
          label={m.protocol === 'udp' ? t('stun.sessions') : t('stun.connections')}
          value={String(m.connections)}
        />
        <Figure label={t('stun.bytesIn')} hint={t('stun.bytesInHelp')} value={size(m.bytesIn)} sub={rate(m.rateIn)} />
        <Figure
          label={t('stun.bytesOut')}
          hint={t('stun.bytesOutHelp')}
          value={size(m.bytesOut)}
          sub={rate(m.rateOut)}
        />
      </Figures>

      {m.portMaps.length > 0 && (
        <ul className="stun-portmaps">
          {m.portMaps.map((p) => (
            <PortMapLine key={p.method} map={p} testId={`stun-portmap-${id}-${p.method}`} />
          ))}
        </ul>
      )}
    </div>
  );
}

function PortMapLine({ map: p, testId }: { map: StunPortMapView; testId: string }) {
  const { t } = useTranslation();
  const text = p.ok
    ? p.externalPort !== undefined
      ? `${p.externalAddress ?? '?'}:${p.externalPort}`
      : t('stun.portMapOk')
    : p.reason
      ? codedText('stun', 'reason', { ...p.reason, text: p.error })
      : (p.error ?? '');
  return (
    <li data-testid={testId}>
      <Tag color={p.ok ? 'success' : 'error'}>{t(`stun.method_${p.method}`)}</Tag>
      <Typography.Text type={p.ok ? undefined : 'danger'} className={p.ok ? 'mono' : undefined}>
        {text}
      </Typography.Text>
    </li>
  );
}

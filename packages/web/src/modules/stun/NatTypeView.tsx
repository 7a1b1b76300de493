// A NAT type detection result in plain words: the verdict (can a public port be opened here?),
// then the RFC 5780 mapping and filtering behaviour, the public address and when it was seen.
import type { NatVerdict, StunNatTypeView } from '@lucky/shared';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';

const TONE: Record<NatVerdict, string> = {
  open: 'success',
  fullCone: 'success',
  restrictedCone: 'warning',
  portRestrictedCone: 'warning',
  symmetric: 'error',
  blocked: 'error',
  unsupportedServer: 'default',
};

export function NatTypeView({ nat, compact, testId }: { nat: StunNatTypeView; compact?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const details = [
    t('stun.natMappingIs', { value: t(`stun.natMapping_${nat.mapping}`) }),
    t('stun.natFilteringIs', { value: t(`stun.natFiltering_${nat.filtering}`) }),
    nat.tcpMapping ? t('stun.natTcpMappingIs', { value: t(`stun.natMapping_${nat.tcpMapping}`) }) : '',
  ].filter(Boolean);
  return (
    <div className={`stun-nat${compact ? ' stun-nat-compact' : ''}`} data-testid={testId} data-verdict={nat.verdict}>
      <div className="stun-nat-verdict">
        <Tag color={TONE[nat.verdict] ?? 'default'}>{t(`stun.verdictName_${nat.verdict}`)}</Tag>
        <span>{t(`stun.verdict_${nat.verdict}`)}</span>
      </div>
      <Typography.Text type="secondary" className="stun-nat-details">
        {details.join(' · ')}
        {nat.publicAddress && (
          <>
            {' · '}
            {t('stun.natPublic', { address: nat.publicAddress })}
          </>
        )}
        {!compact && nat.server && (
          <>
            {' · '}
            {t('stun.natServer', { server: nat.server })}
          </>
        )}
        {' · '}
        {t('stun.natAt', { time: formatTime(nat.at) })}
      </Typography.Text>
    </div>
  );
}

// The ACME screen (/acme): accounts, certificates with their state, the log. Being built (issue 17).
import type { AcmeListResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';

export default function AcmeScreen() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['acme'], queryFn: () => get<AcmeListResponse>('/api/acme') });
  return (
    <div className="screen" data-testid="acme-screen">
      <Typography.Title level={4} className="screen-title">
        {t('menu.acme')}
      </Typography.Title>
      <Typography.Text>{list.data?.certificates.length ?? 0}</Typography.Text>
    </div>
  );
}

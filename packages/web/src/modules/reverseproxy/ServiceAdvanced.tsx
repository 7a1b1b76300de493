// The rarely changed service options, folded away: client IP, access control,
// CORS, cache and robots, custom headers, custom config, access log. Every panel is rendered
// (hidden) from the start so its fields are part of the form; each header says
// what is set without opening it.
import { customConfigCount } from '@lucky/shared';
import { Collapse, Form, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { levelKey } from '../../components/ruleLog/levels';
import { AuthFields, FilterFields } from './AccessFields';
import { ClientIpFields } from './ClientIpFields';
import { CustomConfigFields } from './CustomConfigFields';
import { HeadersFields } from './HeadersFields';
import { CacheRobotsFields, CorsFields } from './HttpFields';
import { LogFields } from './LogFields';
import { type NamePath, newServiceValues, type PanelKey, type ServiceValues } from './serviceForm';

export interface ServiceAdvancedProps {
  prefix: NamePath;
  open: PanelKey[];
  onOpenChange: (keys: PanelKey[]) => void;
}

const DEFAULTS = newServiceValues();

function Summary({ children }: { children: ReactNode }) {
  return (
    <Typography.Text type="secondary" className="rp-panel-summary">
      {children}
    </Typography.Text>
  );
}

export function ServiceAdvanced({ prefix, open, onOpenChange }: ServiceAdvancedProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const watched = Form.useWatch(prefix.length ? prefix : (all: ServiceValues) => all, form) as
    | ServiceValues
    | undefined;
  const v: ServiceValues = { ...DEFAULTS, ...watched };
  const off = t('reverseproxy.off');
  const filters = [
    v.ipFilter?.mode && v.ipFilter.mode !== 'off' ? `IP ${t(`reverseproxy.filter_${v.ipFilter.mode}`)}` : '',
    v.uaFilter?.mode && v.uaFilter.mode !== 'off' ? `UA ${t(`reverseproxy.filter_${v.uaFilter.mode}`)}` : '',
  ].filter(Boolean);
  const headerCount = (v.requestHeaders?.length ?? 0) + (v.responseHeaders?.length ?? 0);
  const cache = [t(`reverseproxy.cache_${v.cache?.mode ?? 'default'}`), v.robots?.enabled ? 'robots.txt' : ''].filter(
    Boolean,
  );

  const items: { key: PanelKey; label: string; extra: ReactNode; children: ReactNode }[] = [
    {
      key: 'clientIp',
      label: t('reverseproxy.panelClientIp'),
      extra: (
        <Summary>
          {v.clientIp?.fromHeaders ? t('reverseproxy.clientIpHeaders') : t('reverseproxy.clientIpSocket')}
        </Summary>
      ),
      children: <ClientIpFields prefix={prefix} />,
    },
    {
      key: 'auth',
      label: t('reverseproxy.panelAuth'),
      extra: <Summary>{v.basicAuth?.enabled ? v.basicAuth.user || t('reverseproxy.on') : off}</Summary>,
      children: <AuthFields prefix={prefix} />,
    },
    {
      key: 'filter',
      label: t('reverseproxy.panelFilter'),
      extra: <Summary>{filters.join(' · ') || off}</Summary>,
      children: <FilterFields prefix={prefix} />,
    },
    {
      key: 'cors',
      label: t('reverseproxy.panelCors'),
      extra: <Summary>{v.cors?.enabled ? t('reverseproxy.on') : off}</Summary>,
      children: <CorsFields prefix={prefix} />,
    },
    {
      key: 'cache',
      label: t('reverseproxy.panelCache'),
      extra: <Summary>{cache.join(' · ')}</Summary>,
      children: <CacheRobotsFields prefix={prefix} />,
    },
    {
      key: 'headers',
      label: t('reverseproxy.panelHeaders'),
      extra: <Summary>{headerCount ? t('reverseproxy.headerCount', { count: headerCount }) : off}</Summary>,
      children: <HeadersFields prefix={prefix} />,
    },
    {
      key: 'custom',
      label: t('reverseproxy.panelCustom'),
      extra: (
        <Summary>
          {v.customConfig?.trim()
            ? t('reverseproxy.customConfigCount', { count: customConfigCount(v.customConfig) })
            : off}
        </Summary>
      ),
      children: <CustomConfigFields prefix={prefix} />,
    },
    {
      key: 'log',
      label: t('reverseproxy.panelLog'),
      extra: (
        <Summary>
          {t(levelKey(v.log?.level ?? DEFAULTS.log.level))} · {v.log?.capacity ?? DEFAULTS.log.capacity}{' '}
          {t('common.unitLines')}
        </Summary>
      ),
      children: <LogFields prefix={prefix} />,
    },
  ];

  return (
    <div className="rp-advanced">
      <Typography.Text strong className="rp-advanced-title">
        {t('reverseproxy.advanced')}
      </Typography.Text>
      <Collapse
        size="small"
        activeKey={open}
        onChange={(keys) => onOpenChange(keys as PanelKey[])}
        items={items.map((item) => ({ ...item, forceRender: true }))}
        data-testid="rp-advanced"
      />
    </div>
  );
}

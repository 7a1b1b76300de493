import { GithubOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PRODUCT_WEBSITE } from '../../app/constants';
import { useVersion } from '../../app/queries';
import { LogoMark } from '../../app/shell/Logo';
import { formatTime } from '../../components/time';
import { RemoteVersions } from './RemoteVersions';
import { useProgramInfo } from './useLocalInfo';
import { useRemoteCheck } from './useRemoteCheck';

const formatStart = (v: string | number | undefined): string => formatTime(v, 'YYYY-MM-DD HH:mm:ss', '-');

export default function AboutScreen() {
  const { t } = useTranslation();
  const version = useVersion();
  const info = useProgramInfo();
  const remote = useRemoteCheck();
  const current = version.data?.version ?? info.data?.Version;
  // Spec §4: when the remote check wins the local information card is hidden (showLocalView off);
  // when it fails, or before any result, it shows.
  const showLocal = remote.result?.showLocalView !== false;

  return (
    <div className="screen" data-testid="about-screen">
      <Card>
        <div style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
          <LogoMark size={56} />
          <div style={{ flex: 1 }}>
            <Typography.Title level={3} style={{ margin: 0 }}>
              Lucky {current && <Tag color="green">v{current}</Tag>}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
              {t('about.description')}
            </Typography.Paragraph>
          </div>
          <Button icon={<GithubOutlined />} href={PRODUCT_WEBSITE} target="_blank" rel="noopener noreferrer">
            {t('about.website')}
          </Button>
        </div>
      </Card>

      <Card
        title={t('about.latestTitle')}
        extra={remote.checking ? <ReloadOutlined spin aria-label={t('about.checking')} /> : null}
      >
        {remote.result === null ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : remote.result.showAboutView ? (
          <RemoteVersions result={remote.result} current={current} />
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Alert type="info" showIcon title={t('about.remoteUnavailable')} />
            <RemoteVersions result={remote.result} current={current} showLinks={false} />
          </Space>
        )}
      </Card>

      {showLocal && (
        <Card title={t('about.localTitle')} data-testid="about-local">
          {info.isPending ? (
            <Skeleton active />
          ) : (
            <Descriptions
              column={{ xs: 1, md: 2 }}
              bordered
              size="small"
              items={[
                { key: 'app', label: t('about.appName'), children: info.data?.AppName ?? 'Lucky' },
                { key: 'version', label: t('about.version'), children: current ?? '-' },
                { key: 'os', label: t('about.os'), children: info.data?.OS ?? '-' },
                { key: 'arch', label: t('about.arch'), children: info.data?.ARCH ?? '-' },
                { key: 'node', label: t('about.nodeVersion'), children: info.data?.NodeVersion ?? '-' },
                { key: 'start', label: t('about.startTime'), children: formatStart(info.data?.StartTime) },
                {
                  key: 'dir',
                  label: t('about.configDir'),
                  span: 2,
                  children: (
                    <Typography.Text className="mono" copyable={!!info.data?.ConfigDir}>
                      {info.data?.ConfigDir ?? '-'}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          )}
        </Card>
      )}
    </div>
  );
}

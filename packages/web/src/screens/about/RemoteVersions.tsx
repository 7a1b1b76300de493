import { Descriptions, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type RemoteCheckResult, UNKNOWN_VERSION } from './remoteCheck';
import { compareVersions, newestVersion } from './version';

function VersionText({ v }: { v: string }) {
  const { t } = useTranslation();
  return v === UNKNOWN_VERSION ? <Typography.Text type="secondary">{t('about.unknownVersion')}</Typography.Text> : v;
}

/** Latest versions announced by the two information sources, and whether this install is behind. */
export interface RemoteVersionsProps {
  result: RemoteCheckResult;
  current?: string;
  /** The fallback view has no remote pages worth linking to. */
  showLinks?: boolean;
}

export function RemoteVersions({ result, current, showLinks = true }: RemoteVersionsProps) {
  const { t } = useTranslation();
  const newest = newestVersion(result.lastVersion);
  const cmp = newest && current ? compareVersions(newest, current) : null;
  const links = showLinks ? [result.appinfourl, result.staticHost].filter((u) => /^https?:\/\//i.test(u)) : [];
  return (
    <Descriptions
      column={1}
      size="small"
      data-testid="remote-versions"
      items={[
        { key: 'v1', label: t('about.source1'), children: <VersionText v={result.lastVersion[0]} /> },
        { key: 'v2', label: t('about.source2'), children: <VersionText v={result.lastVersion[1]} /> },
        ...(cmp === null
          ? []
          : [
              {
                key: 'status',
                label: t('about.status'),
                children:
                  cmp > 0 ? (
                    <Tag color="orange">{t('about.updateAvailable', { version: newest })}</Tag>
                  ) : (
                    <Tag color="green">{t('about.upToDate')}</Tag>
                  ),
              },
            ]),
        ...(links.length === 0
          ? []
          : [
              {
                key: 'links',
                label: t('about.moreInfo'),
                children: links.map((u) => (
                  <Typography.Link
                    key={u}
                    href={u}
                    target="_blank"
                    rel="noopener noreferrer"
                    style={{ marginRight: 12 }}
                  >
                    {u}
                  </Typography.Link>
                )),
              },
            ]),
      ]}
    />
  );
}

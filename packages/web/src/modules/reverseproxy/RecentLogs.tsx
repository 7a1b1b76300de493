// The newest access-log lines of a rule (each site's "latest shown" setting),
// all sites merged newest first, folded under one line that previews the newest.
// Coded lines read in the UI language (`reverseproxy.log_<code>`).
import type { LogEntryView } from '@lucky/shared';
import { Button, Collapse, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LevelTag } from '../../components/ruleLog/LevelTag';
import { logTime } from '../../components/ruleLog/levels';
import { codedText } from '../../i18n/coded';

export interface Site {
  key: string;
  label: string;
}

export interface RecentLogsProps {
  logs: Record<string, LogEntryView[]>;
  sites: Site[];
  onOpenAll: (site: string) => void;
  testId?: string;
}

type Line = LogEntryView & { site: string };

/** Every site's lines in one list, newest first. */
export function mergeLogs(logs: Record<string, LogEntryView[]>): Line[] {
  const all = Object.entries(logs).flatMap(([site, list]) => list.map((l) => ({ ...l, site })));
  return all.sort((a, b) => b.time.localeCompare(a.time) || b.seq - a.seq);
}

export function RecentLogs({ logs, sites, onOpenAll, testId }: RecentLogsProps) {
  const { t } = useTranslation();
  const lines = mergeLogs(logs);
  const labelOf = (site: string) => sites.find((s) => s.key === site)?.label ?? site;
  const newest = lines[0];
  const label = (
    <span className="rp-recent-label">
      <span>{t('reverseproxy.recentLogs', { count: lines.length })}</span>
      {newest && (
        <Typography.Text type="secondary" ellipsis className="rp-recent-preview mono">
          {logTime(newest.time)} {codedText('reverseproxy', 'log', newest)}
        </Typography.Text>
      )}
    </span>
  );
  return (
    <Collapse
      ghost
      size="small"
      className="rp-recent"
      collapsible={lines.length === 0 ? 'disabled' : undefined}
      data-testid={testId}
      items={[
        {
          key: 'logs',
          label,
          children: (
            <div className="rp-recent-body">
              <ol className="rp-recent-lines mono" data-testid="rp-recent-lines">
                {lines.map((l) => (
                  <li key={`${l.site}-${l.seq}`}>
                    <span className="rp-recent-time">{logTime(l.time)}</span>
                    <LevelTag level={l.level} />
                    <Tag className="rp-site-tag" onClick={() => onOpenAll(l.site)}>
                      {labelOf(l.site)}
                    </Tag>
                    <span className="rp-recent-text">{codedText('reverseproxy', 'log', l)}</span>
                  </li>
                ))}
              </ol>
              <Button type="link" size="small" onClick={() => onOpenAll(newest?.site ?? 'default')}>
                {t('reverseproxy.openFullLog')}
              </Button>
            </div>
          ),
        },
      ]}
    />
  );
}

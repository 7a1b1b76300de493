// The newest log lines of a rule (as many as its "latest shown" setting),
// folded under one line that previews the newest; coded lines in the UI language.
import type { PortforwardLogEntry } from '@lucky/shared';
import { Button, Collapse, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LevelTag } from '../../components/ruleLog/LevelTag';
import { logTime } from '../../components/ruleLog/levels';
import { codedText } from '../../i18n/coded';

export interface RecentLogsProps {
  logs: PortforwardLogEntry[];
  onOpenAll: () => void;
}

export function RecentLogs({ logs, onOpenAll }: RecentLogsProps) {
  const { t } = useTranslation();
  const newest = logs[0];
  const label = (
    <span className="pf-recent-label">
      <span>{t('portforward.recentLogs', { count: logs.length })}</span>
      {newest && (
        <Typography.Text type="secondary" ellipsis className="pf-recent-preview mono">
          {logTime(newest.time)} {codedText('portforward', 'log', newest)}
        </Typography.Text>
      )}
    </span>
  );
  return (
    <Collapse
      ghost
      size="small"
      className="pf-recent"
      collapsible={logs.length === 0 ? 'disabled' : undefined}
      items={[
        {
          key: 'logs',
          label,
          children: (
            <div className="pf-recent-body">
              <ol className="pf-recent-lines mono" data-testid="pf-recent-lines">
                {logs.map((l) => (
                  <li key={l.seq}>
                    <span className="pf-recent-time">{logTime(l.time)}</span>
                    <LevelTag level={l.level} />
                    <span className="pf-recent-text">{codedText('portforward', 'log', l)}</span>
                  </li>
                ))}
              </ol>
              <Button type="link" size="small" onClick={onOpenAll}>
                {t('portforward.openFullLog')}
              </Button>
            </div>
          ),
        },
      ]}
    />
  );
}

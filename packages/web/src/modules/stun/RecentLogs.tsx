// The newest log lines of a rule (as many as its "frontend log count"), folded under one line
// that previews the newest; coded lines in the UI language (`stun.log_<code>`).
import type { StunLogEntry } from '@lucky/shared';
import { Button, Collapse, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LevelTag } from '../../components/ruleLog/LevelTag';
import { logTime } from '../../components/ruleLog/levels';
import { codedText } from '../../i18n/coded';

export interface RecentLogsProps {
  logs: StunLogEntry[];
  onOpenAll: () => void;
  testId?: string;
}

export function RecentLogs({ logs, onOpenAll, testId }: RecentLogsProps) {
  const { t } = useTranslation();
  const newest = logs[0];
  const label = (
    <span className="stun-recent-label">
      <span>{t('stun.recentLogs', { count: logs.length })}</span>
      {newest && (
        <Typography.Text type="secondary" ellipsis className="stun-recent-preview mono">
          {logTime(newest.time)} {codedText('stun', 'log', newest)}
        </Typography.Text>
      )}
    </span>
  );
  return (
    <Collapse
      ghost
      size="small"
      className="stun-recent"
      collapsible={logs.length === 0 ? 'disabled' : undefined}
      data-testid={testId}
      items={[
        {
          key: 'logs',
          label,
          children: (
            <div>
              <ol className="stun-recent-lines mono" data-testid="stun-recent-lines">
                {logs.map((l) => (
                  <li key={l.seq}>
                    <span className="stun-recent-time">{logTime(l.time)}</span>
                    <LevelTag level={l.level} />
                    <span className="stun-recent-text">{codedText('stun', 'log', l)}</span>
                  </li>
                ))}
              </ol>
              <Button type="link" size="small" onClick={onOpenAll}>
                {t('stun.openFullLog')}
              </Button>
            </div>
          ),
        },
      ]}
    />
  );
}

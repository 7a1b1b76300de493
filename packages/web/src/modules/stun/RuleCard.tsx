// One rule in the list: switch, name, state with its reason, where the traffic goes, each
// protocol's mapping (public address large and copyable), the NAT type when known, the last
// script / webhook / DDNS outcome and the newest log lines; actions to edit, re-open the mappings
// now, detect the NAT type, read the log and delete.
import { DeleteOutlined, EditOutlined, FileTextOutlined, RadarChartOutlined, SyncOutlined } from '@ant-design/icons';
import type { StunRuleView } from '@lucky/shared';
import { Alert, Button, Card, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { codedText, codedTextWithCauses } from '../../i18n/coded';
import { MappingPanel } from './MappingPanel';
import { NatTypeView } from './NatTypeView';
import { RecentLogs } from './RecentLogs';
import { RuleStateTag } from './StateTag';

export interface RuleCardProps {
  rule: StunRuleView;
  onToggle: (enabled: boolean) => Promise<unknown>;
  onEdit: () => void;
  onReopen: () => Promise<unknown>;
  onNatType: () => void;
  onDelete: () => Promise<unknown>;
  onLogs: () => void;
}

/** The rule's own reason in the UI language. */
function ruleReason(rule: StunRuleView): string {
  if (!rule.reason) return rule.error ?? '';
  return codedText('stun', 'reason', { ...rule.reason, text: rule.error });
}

export function RuleCard({ rule, onToggle, onEdit, onReopen, onNatType, onDelete, onLogs }: RuleCardProps) {
  const { t } = useTranslation();
  const [switching, setSwitching] = useState(false);
  const [reopening, setReopening] = useState(false);
  const key = rule.key;
  const live = rule.state !== 'disabled' && rule.state !== 'stopped';
  const reason = ruleReason(rule);

  const busy = async (set: (b: boolean) => void, run: () => Promise<unknown>) => {
    set(true);
    try {
      await run();
    } finally {
      set(false);
    }
  };

  return (
    <Card size="small" className={`stun-rule stun-rule-${rule.state}`} data-testid={`stun-rule-${key}`}>
      <div className="stun-rule-head">
        <div className="stun-rule-title">
          <Switch
            checked={rule.enabled}
            loading={switching}
            onChange={(on) => void busy(setSwitching, () => onToggle(on))}
            aria-label={t('stun.ruleSwitch')}
            data-testid={`stun-rule-switch-${key}`}
          />
          <Typography.Text strong className="stun-rule-name" ellipsis data-testid={`stun-rule-name-${key}`}>
            {rule.name}
          </Typography.Text>
          <RuleStateTag state={rule.state} testId={`stun-rule-state-${key}`} />
          {rule.protocols.map((p) => (
            <Tag key={p} className="stun-proto">
              {p.toUpperCase()}
            </Tag>
          ))}
        </div>
        <Space size={4} wrap className="stun-rule-actions">
          <Button icon={<FileTextOutlined />} onClick={onLogs} data-testid={`stun-rule-logs-${key}`}>
            {t('stun.logs')}
          </Button>
          <Button icon={<EditOutlined />} onClick={onEdit} data-testid={`stun-rule-edit-${key}`}>
            {t('stun.edit')}
          </Button>
          <Button
            icon={<SyncOutlined />}
            disabled={!live}
            loading={reopening}
            onClick={() => void busy(setReopening, onReopen)}
            title={t('stun.reopenHelp')}
            data-testid={`stun-rule-reopen-${key}`}
          >
            {t('stun.reopen')}
          </Button>
          <Button
            icon={<RadarChartOutlined />}
            disabled={!live}
            onClick={onNatType}
            data-testid={`stun-rule-nat-${key}`}
          >
            {t('stun.detectNatType')}
          </Button>
          <Popconfirm
            title={t('stun.deleteConfirm', { name: rule.name })}
            description={t('stun.deleteConfirmHelp')}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete()}
          >
            <Button danger icon={<DeleteOutlined />} data-testid={`stun-rule-delete-${key}`}>
              {t('stun.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>

      <div className="stun-rule-route mono" data-testid={`stun-rule-route-${key}`}>
        <span>{t('stun.routeLocal', { port: rule.localPort || t('stun.autoPort') })}</span>
        <span className="stun-arrow">→</span>
        {rule.disableForwarding ? (
          <Tag color="gold">{t('stun.forwardingOff')}</Tag>
        ) : (
          <span>
            {rule.targetAddress}:{rule.targetPort}
          </span>
        )}
        {(rule.upnp || rule.natpmp) && (
          <Tag>
            {[rule.upnp ? 'UPnP' : '', rule.natpmp ? t(`stun.natpmpMethod_${rule.natpmpMethod}`) : '']
              .filter(Boolean)
              .join(' · ')}
          </Tag>
        )}
        {rule.autoWhitelist && <Tag color="blue">{t('stun.autoWhitelistTag')}</Tag>}
      </div>

      {reason && rule.state !== 'running' && (
        <Alert
          type={rule.state === 'error' ? 'error' : 'warning'}
          showIcon
          title={reason}
          data-testid={`stun-rule-reason-${key}`}
        />
      )}

      <div className="stun-mappings">
        {rule.mappings.map((m) => (
          <MappingPanel key={m.protocol} ruleKey={key} mapping={m} />
        ))}
      </div>

      {rule.natType && (
        <div className="stun-rule-line">
          <Typography.Text type="secondary" className="stun-line-label">
            {t('stun.natType')}
          </Typography.Text>
          <NatTypeView nat={rule.natType} compact testId={`stun-rule-nattype-${key}`} />
        </div>
      )}

      {rule.lastNotify && (rule.lastNotify.webhook || rule.lastNotify.script || rule.lastNotify.ddns) && (
        <LastNotify notify={rule.lastNotify} testId={`stun-rule-notify-${key}`} />
      )}

      <RecentLogs logs={rule.lastLogs} onOpenAll={onLogs} testId={`stun-rule-recent-${key}`} />
    </Card>
  );
}

/** The last time the public address was announced: how the webhook, script and DDNS update went. */
function LastNotify({ notify, testId }: { notify: NonNullable<StunRuleView['lastNotify']>; testId: string }) {
  const { t } = useTranslation();
  // A webhook outcome carries what went wrong as its cause or detail (core webhook kit), after the
  // text; the script's and DDNS's reasons name their detail in the text itself.
  const parts: [string, string | undefined][] = [
    ['stun.webhook', notify.webhook && codedTextWithCauses('stun', 'reason', notify.webhook)],
    ['stun.script', notify.script && codedText('stun', 'reason', notify.script)],
    ['stun.ddnsTask', notify.ddns && codedText('stun', 'reason', notify.ddns)],
  ];
  return (
    <div className="stun-rule-line" data-testid={testId}>
      <Typography.Text type="secondary" className="stun-line-label">
        {t('stun.lastNotify', { time: formatTime(notify.at) })}
      </Typography.Text>
      {parts
        .filter(([, c]) => c !== undefined)
        .map(([label, c]) => (
          <span key={label} className="stun-notify-part">
            <Typography.Text type="secondary">{t(label)}:</Typography.Text> <span>{c}</span>
          </span>
        ))}
    </div>
  );
}

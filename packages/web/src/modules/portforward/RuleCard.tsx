// One rule in the list: switch, name, state, forward types, where it listens
// and forwards to, its live figures, its ports and its newest log lines.
import { DeleteOutlined, EditOutlined, FileTextOutlined } from '@ant-design/icons';
import { FORWARD_TYPES, type PortforwardRuleView } from '@lucky/shared';
import { Alert, Button, Card, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Figure, Figures } from '../../components/Figure';
import { codedText } from '../../i18n/coded';
import { bracket, rate, size } from './format';
import { ProxyTable } from './ProxyTable';
import { RecentLogs } from './RecentLogs';
import { hasTcp, hasUdp } from './ruleForm';
import { StateTag } from './StateTag';

export interface RuleCardProps {
  rule: PortforwardRuleView;
  onToggle: (enabled: boolean) => Promise<unknown>;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  onLogs: () => void;
}

export function RuleCard({ rule, onToggle, onEdit, onDelete, onLogs }: RuleCardProps) {
  const { t } = useTranslation();
  const [switching, setSwitching] = useState(false);
  const types = FORWARD_TYPES.filter((x) => rule.forwardTypes.includes(x));
  const listenHost = rule.listenAddress ? bracket(rule.listenAddress) : t('portforward.anyAddressShort');
  const targets = rule.targetAddresses.map(bracket).join(', ');

  const toggle = async (on: boolean) => {
    setSwitching(true);
    try {
      await onToggle(on);
    } finally {
      setSwitching(false);
    }
  };

  return (
    <Card size="small" className={`pf-rule pf-rule-${rule.state}`} data-testid={`pf-rule-${rule.key}`}>
      <div className="pf-rule-head">
        <div className="pf-rule-title">
          <Switch
            checked={rule.enabled}
            loading={switching}
            onChange={(on) => void toggle(on)}
            aria-label={t('portforward.ruleSwitch')}
            data-testid={`pf-rule-switch-${rule.key}`}
          />
          <Typography.Text strong className="pf-rule-name" ellipsis>
            {rule.name || t('portforward.unnamed')}
          </Typography.Text>
          <StateTag state={rule.state} testId={`pf-rule-state-${rule.key}`} />
          <span className="pf-rule-types">
            {types.map((x) => (
              <Tag key={x} className="pf-type-tag">
                {x.toUpperCase()}
              </Tag>
            ))}
          </span>
        </div>
        <Space size={4} wrap className="pf-rule-actions">
          <Button icon={<FileTextOutlined />} onClick={onLogs} data-testid={`pf-rule-logs-${rule.key}`}>
            {t('portforward.logs')}
          </Button>
          <Button icon={<EditOutlined />} onClick={onEdit} data-testid={`pf-rule-edit-${rule.key}`}>
            {t('portforward.edit')}
          </Button>
          <Popconfirm
            title={t('portforward.deleteConfirm', { name: rule.name || t('portforward.unnamed') })}
            description={t('portforward.deleteConfirmHelp')}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete()}
          >
            <Button danger icon={<DeleteOutlined />} data-testid={`pf-rule-delete-${rule.key}`}>
              {t('portforward.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>

      <div className="pf-rule-route mono" data-testid={`pf-rule-route-${rule.key}`}>
        <span>
          {listenHost}:{rule.listenPorts}
        </span>
        <span className="pf-arrow">→</span>
        <span>
          {targets}:{rule.targetPorts}
        </span>
        {rule.tlsMode !== 'none' && <Tag color="purple">{t(`portforward.tls_${rule.tlsMode}`)}</Tag>}
        {rule.accessMode !== 'off' && <Tag color="gold">{t(`portforward.access_${rule.accessMode}`)}</Tag>}
      </div>

      <Figures testId={`pf-rule-figures-${rule.key}`}>
        {hasTcp(rule.forwardTypes) && (
          <Figure label={t('portforward.connections')} value={`${rule.connections} / ${rule.maxTcpConnections}`} />
        )}
        {hasUdp(rule.forwardTypes) && (
          <Figure label={t('portforward.sessions')} value={`${rule.sessions} / ${rule.maxUdpSessions}`} />
        )}
        <Figure
          label={t('portforward.bytesIn')}
          hint={t('portforward.bytesInHelp')}
          value={size(rule.bytesIn)}
          sub={rate(rule.rateIn)}
        />
        <Figure
          label={t('portforward.bytesOut')}
          hint={t('portforward.bytesOutHelp')}
          value={size(rule.bytesOut)}
          sub={rate(rule.rateOut)}
        />
        {(rule.speedLimitIn > 0 || rule.speedLimitOut > 0) && (
          <Figure
            label={t('portforward.speedLimits')}
            value={`↑ ${rule.speedLimitIn ? rate(rule.speedLimitIn) : '∞'}  ↓ ${rule.speedLimitOut ? rate(rule.speedLimitOut) : '∞'}`}
          />
        )}
      </Figures>

      {(rule.reason || rule.error) && (
        <Alert
          type="error"
          showIcon
          className="pf-rule-error"
          title={ruleReason(rule, t)}
          data-testid={`pf-rule-error-${rule.key}`}
        />
      )}

      <ProxyTable proxies={rule.proxies} />
      <RecentLogs logs={rule.lastLogs} onOpenAll={onLogs} />
    </Card>
  );
}

/**
 * Why the rule is in error, in the UI language. For failed ports the first one's own reason
 * follows (the port table lists each), as the server's English does.
 */
function ruleReason(rule: PortforwardRuleView, t: (key: string) => string): string {
  if (!rule.reason) return rule.error ?? '';
  const text = codedText('portforward', 'reason', { ...rule.reason, text: rule.error });
  const port = rule.reason.code === 'portsFailed' ? rule.proxies.find((p) => p.reason) : undefined;
  if (!port) return text;
  return `${text}${t('portforward.reasonJoin')}${codedText('portforward', 'reason', { ...port.reason, text: port.error })}`;
}

// One rule (listener) in the list: switch, name, state, where it listens, the
// runtime's reason or warnings, its live figures, its default rule, its sub
// rules and its newest log lines.
import { DeleteOutlined, EditOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import {
  formatSize,
  REVERSEPROXY_DEFAULT_SITE,
  type ReverseproxyRuleView,
  type ReverseproxySubRuleView,
  type ReverseproxyTraffic,
} from '@lucky/shared';
import { Alert, Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Figure, Figures } from '../../components/Figure';
import { codedText } from '../../i18n/coded';
import { AsyncSwitch } from './AsyncSwitch';
import { listenText, serviceTarget } from './format';
import { RecentLogs, type Site } from './RecentLogs';
import { SubRuleList } from './SubRuleList';
import { ServiceTypeTag, StateTag } from './Tags';

export interface RuleCardProps {
  rule: ReverseproxyRuleView;
  onToggle: (on: boolean) => Promise<unknown>;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  onAddSub: () => void;
  onEditSub: (sub: ReverseproxySubRuleView) => void;
  onToggleSub: (sub: string, on: boolean) => Promise<unknown>;
  onDeleteSub: (sub: string) => Promise<unknown>;
  onLogs: (site: string) => void;
}

/** The sites of a rule, as the log views name them. */
export function sitesOf(rule: ReverseproxyRuleView, t: (k: string) => string): Site[] {
  return [
    { key: REVERSEPROXY_DEFAULT_SITE, label: t('reverseproxy.defaultRule') },
    ...rule.subRules.map((s) => ({ key: s.key, label: s.name || s.domains[0] || t('reverseproxy.unnamedSub') })),
  ];
}

const LISTEN_TYPE_LABEL = { http: ['HTTP'], https: ['HTTPS'], both: ['HTTP', 'HTTPS'] } as const;

export function RuleCard(props: RuleCardProps) {
  const { rule, onToggle, onEdit, onDelete, onAddSub, onLogs } = props;
  const { t } = useTranslation();
  const name = rule.name || t('reverseproxy.unnamed');
  const { status } = rule;
  const def = rule.defaultRule;
  const defTarget = serviceTarget(def, t, true);

  return (
    <Card size="small" className={`rp-rule rp-rule-${status.state}`} data-testid={`rp-rule-${rule.key}`}>
      <div className="rp-rule-head">
        <div className="rp-rule-title">
          <AsyncSwitch
            checked={rule.enabled}
            onChange={onToggle}
            label={t('reverseproxy.ruleSwitch')}
            testId={`rp-rule-switch-${rule.key}`}
          />
          <Typography.Text strong className="rp-rule-name" ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <StateTag state={status.state} testId={`rp-rule-state-${rule.key}`} />
          <span className="rp-listen mono" data-testid={`rp-rule-listen-${rule.key}`}>
            {LISTEN_TYPE_LABEL[rule.listenTypes].map((x) => (
              <Tag key={x} color={x === 'HTTPS' ? 'purple' : 'blue'} className="rp-proto-tag">
                {x}
              </Tag>
            ))}
            {listenText(rule.address, rule.port)}
            {rule.network !== 'tcp' && (
              <Tag className="rp-network-tag" data-testid={`rp-rule-network-${rule.key}`}>
                {t(`reverseproxy.network_${rule.network}`)}
              </Tag>
            )}
          </span>
        </div>
        <Space size={4} wrap className="rp-rule-actions">
          <Button icon={<PlusOutlined />} onClick={onAddSub} data-testid={`rp-rule-add-sub-${rule.key}`}>
            {t('reverseproxy.addSubRule')}
          </Button>
          <Button
            icon={<FileTextOutlined />}
            onClick={() => onLogs(REVERSEPROXY_DEFAULT_SITE)}
            data-testid={`rp-rule-logs-${rule.key}`}
          >
            {t('reverseproxy.logs')}
          </Button>
          <Button icon={<EditOutlined />} onClick={onEdit} data-testid={`rp-rule-edit-${rule.key}`}>
            {t('reverseproxy.edit')}
          </Button>
          <Popconfirm
            title={t('reverseproxy.deleteConfirm', { name })}
            description={t('reverseproxy.deleteConfirmHelp', { count: rule.subRules.length })}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete()}
          >
            <Button danger icon={<DeleteOutlined />} data-testid={`rp-rule-delete-${rule.key}`}>
              {t('reverseproxy.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>

      {status.state === 'error' && (
        <Alert
          type="error"
          showIcon
          className="rp-rule-alert"
          title={t('reverseproxy.startFailed')}
          description={
            <>
              <span className="mono">{status.reason && codedText('reverseproxy', 'reason', status.reason)}</span>
              {status.retryAt !== undefined && <div>{t('reverseproxy.retrying')}</div>}
            </>
          }
          data-testid={`rp-rule-error-${rule.key}`}
        />
      )}
      {status.warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          className="rp-rule-alert"
          title={
            <ul className="rp-warnings">
              {status.warnings.map((w) => (
                <li key={w.code}>{codedText('reverseproxy', 'reason', w)}</li>
              ))}
            </ul>
          }
          data-testid={`rp-rule-warnings-${rule.key}`}
        />
      )}

      {status.traffic && <TrafficFigures traffic={status.traffic} testId={`rp-rule-figures-${rule.key}`} />}

      <div className="rp-default" data-testid={`rp-rule-default-${rule.key}`}>
        <span className="rp-section-label">{t('reverseproxy.defaultRule')}</span>
        <ServiceTypeTag type={def.serviceType} />
        {def.serviceType === 'proxy' && def.targets.length === 0 ? (
          <Typography.Text type="secondary">{defTarget}</Typography.Text>
        ) : (
          defTarget && (
            <Typography.Text className="rp-target mono" ellipsis={{ tooltip: defTarget }}>
              {defTarget}
            </Typography.Text>
          )
        )}
      </div>

      <div className="rp-subs">
        <span className="rp-section-label">{t('reverseproxy.subRulesCount', { count: rule.subRules.length })}</span>
        <SubRuleList
          ruleKey={rule.key}
          subRules={rule.subRules}
          onToggle={props.onToggleSub}
          onEdit={props.onEditSub}
          onDelete={props.onDeleteSub}
          onLogs={onLogs}
        />
      </div>

      <RecentLogs
        logs={rule.lastLogs}
        sites={sitesOf(rule, t)}
        onOpenAll={onLogs}
        testId={`rp-rule-recent-${rule.key}`}
      />
    </Card>
  );
}

/** What the listener carries now: connections, requests and bytes (totals since it started, per second beside). */
function TrafficFigures({ traffic, testId }: { traffic: ReverseproxyTraffic; testId: string }) {
  const { t } = useTranslation();
  const perSecond = (text: string) => t('reverseproxy.perSecond', { value: text });
  return (
    <Figures testId={testId}>
      <Figure label={t('reverseproxy.connections')} value={String(traffic.connections)} />
      <Figure
        label={t('reverseproxy.requests')}
        hint={t('reverseproxy.requestsHelp')}
        value={String(traffic.requests)}
        sub={perSecond(String(traffic.requestRate))}
      />
      <Figure
        label={t('reverseproxy.bytesIn')}
        hint={t('reverseproxy.bytesInHelp')}
        value={formatSize(traffic.bytesIn)}
        sub={perSecond(formatSize(traffic.rateIn))}
      />
      <Figure
        label={t('reverseproxy.bytesOut')}
        hint={t('reverseproxy.bytesOutHelp')}
        value={formatSize(traffic.bytesOut)}
        sub={perSecond(formatSize(traffic.rateOut))}
      />
    </Figures>
  );
}

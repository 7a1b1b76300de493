// The sub rules inside a rule card: one row each with its switch, name, the
// front-end domains and path it takes, what it answers with, and its actions.

import { DeleteOutlined, EditOutlined, FileTextOutlined } from '@ant-design/icons';
import type { ReverseproxySubRuleView } from '@lucky/shared';
import { Button, Popconfirm, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AsyncSwitch } from './AsyncSwitch';
import { serviceTarget } from './format';
import { ServiceTypeTag } from './Tags';

export interface SubRuleListProps {
  ruleKey: string;
  subRules: ReverseproxySubRuleView[];
  onToggle: (sub: string, on: boolean) => Promise<unknown>;
  onEdit: (sub: ReverseproxySubRuleView) => void;
  onDelete: (sub: string) => Promise<unknown>;
  onLogs: (sub: string) => void;
}

export function SubRuleList({ ruleKey, subRules, onToggle, onEdit, onDelete, onLogs }: SubRuleListProps) {
  const { t } = useTranslation();
  if (subRules.length === 0) {
    return (
      <Typography.Text type="secondary" className="rp-sub-empty" data-testid={`rp-sub-empty-${ruleKey}`}>
        {t('reverseproxy.noSubRules')}
      </Typography.Text>
    );
  }
  return (
    <ul className="rp-sub-list" data-testid={`rp-sub-list-${ruleKey}`}>
      {subRules.map((sub) => {
        const name = sub.name || t('reverseproxy.unnamedSub');
        const target = serviceTarget(sub, t);
        return (
          <li key={sub.key} className={`rp-sub${sub.enabled ? '' : ' rp-sub-off'}`} data-testid={`rp-sub-${sub.key}`}>
            <div className="rp-sub-main">
              <AsyncSwitch
                size="small"
                checked={sub.enabled}
                onChange={(on) => onToggle(sub.key, on)}
                label={t('reverseproxy.subRuleSwitch')}
                testId={`rp-sub-switch-${sub.key}`}
              />
              <Typography.Text strong className="rp-sub-name" ellipsis={{ tooltip: name }}>
                {name}
              </Typography.Text>
              <span className="rp-sub-domains mono">
                {sub.domains.map((d) => (
                  <Tag key={d} className="rp-domain-tag">
                    {d}
                  </Tag>
                ))}
                {sub.pathPrefix !== '/' && (
                  <Tooltip title={t('reverseproxy.pathPrefix')}>
                    <Tag color="geekblue">{sub.pathPrefix}</Tag>
                  </Tooltip>
                )}
              </span>
              <span className="rp-arrow">→</span>
              <ServiceTypeTag type={sub.serviceType} />
              {target && (
                <Typography.Text className="rp-target mono" ellipsis={{ tooltip: target }}>
                  {target}
                </Typography.Text>
              )}
              {sub.basicAuth.enabled && <Tag color="orange">{t('reverseproxy.tagAuth')}</Tag>}
              {sub.ipFilter.mode !== 'off' && <Tag color="gold">{t(`reverseproxy.filter_${sub.ipFilter.mode}`)}</Tag>}
            </div>
            <div className="rp-sub-actions">
              <Button
                size="small"
                type="text"
                icon={<FileTextOutlined />}
                onClick={() => onLogs(sub.key)}
                data-testid={`rp-sub-logs-${sub.key}`}
              >
                {t('reverseproxy.accessLog')}
              </Button>
              <Button
                size="small"
                type="text"
                icon={<EditOutlined />}
                onClick={() => onEdit(sub)}
                data-testid={`rp-sub-edit-${sub.key}`}
              >
                {t('reverseproxy.edit')}
              </Button>
              <Popconfirm
                title={t('reverseproxy.deleteSubConfirm', { name })}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete(sub.key)}
              >
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  data-testid={`rp-sub-delete-${sub.key}`}
                >
                  {t('reverseproxy.delete')}
                </Button>
              </Popconfirm>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

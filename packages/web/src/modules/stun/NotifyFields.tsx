// What happens when a mapping's public address changes: a shell script, a webhook (the DDNS
// webhook fields and test), and a DDNS task whose record is updated at once.
import { STUN_LIMITS as L } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchDdnsTasks, stunKeys } from './api';
import { StunWebhookFields } from './StunWebhookFields';

const SCRIPT_ENV =
  'LUCKY_STUN_RULE LUCKY_STUN_PROTOCOL LUCKY_STUN_INNER_IP LUCKY_STUN_INNER_PORT LUCKY_STUN_OUTER_IP LUCKY_STUN_OUTER_PORT';

export interface NotifyFieldsProps {
  testing: boolean;
  onTestWebhook: () => void;
}

export function NotifyFields({ testing, onTestWebhook }: NotifyFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const task = Form.useWatch('ddnsTask', form) as string | undefined;
  const tasks = useQuery({ queryKey: stunKeys.ddnsTasks, queryFn: ({ signal }) => fetchDdnsTasks(signal) });
  const list = tasks.data?.tasks ?? [];
  const options = [
    { value: '', label: t('stun.ddnsTaskNone') },
    ...list.map((x) => ({ value: x.key, label: x.name || x.key })),
    // A task deleted since the rule was saved still shows what is stored.
    ...(task && !list.some((x) => x.key === task) && !tasks.isPending
      ? [{ value: task, label: t('stun.ddnsTaskMissing', { key: task }) }]
      : []),
  ];
  return (
    <>
      <Form.Item
        name="script"
        label={t('stun.script')}
        extra={
          <span className="stun-help-lines">
            <span>{t('stun.scriptHelp')}</span>
            <span>
              {t('stun.scriptEnv')} <Typography.Text code>{SCRIPT_ENV}</Typography.Text>
            </span>
            <span>{t('stun.scriptArgs')}</span>
          </span>
        }
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 10 }}
          maxLength={L.script.max}
          className="mono"
          spellCheck={false}
          placeholder={'curl -s "http://nas.lan/notify?addr=$1:$2"'}
          data-testid="stun-script"
        />
      </Form.Item>
      <StunWebhookFields
        enabledHelp={t('stun.ruleWebhookHelp')}
        testing={testing}
        onTest={onTestWebhook}
        testId="stun-rule-webhook"
      />
      <Form.Item name="ddnsTask" label={t('stun.ddnsTask')} extra={t('stun.ddnsTaskHelp')}>
        <Select style={{ width: 280 }} loading={tasks.isPending} options={options} data-testid="stun-ddns-task" />
      </Form.Item>
    </>
  );
}

// The task's actions, in order: add, move up / down, remove; each with its own fields by type, a
// time-out and whether the task stops or goes on when it fails.
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  BUILT_MODULES,
  CRON_ACTION_TYPES,
  CRON_HTTP_METHODS,
  CRON_LIMITS,
  type CronActionInput,
  type CronActionType,
  type ModuleActionView,
} from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Dropdown, Form, Input, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import type { FormInstance } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { cronKeys, fetchModuleActions } from './api';
import { taskRule } from './rules';
import { moveItem, newAction, targetFieldOf } from './taskForm';

const SWITCHABLE = BUILT_MODULES.filter((m) => m !== 'cron');

export function ActionsEditor({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  // `preserve`: no item is named `actions` itself (each action's fields are), yet the list is watched whole.
  const actions = Form.useWatch('actions', { form, preserve: true }) as CronActionInput[] | undefined;
  const list = actions ?? [];
  const setList = (next: CronActionInput[]) => form.setFieldValue('actions', next);

  return (
    <Form.Item label={t('cron.ui_actions')} required>
      <div className="cron-actions" data-testid="cron-actions">
        {list.length === 0 && <Typography.Text type="danger">{t('cron.err_actionsRequired')}</Typography.Text>}
        {list.map((action, i) => (
          <Card
            // biome-ignore lint/suspicious/noArrayIndexKey: the fields are named by position (actions.<i>.…); moving swaps values, not cards
            key={i}
            size="small"
            className="cron-action"
            data-testid={`cron-action-${i}`}
            title={
              <Space size={4} wrap>
                <span>{i + 1}.</span>
                <Select<CronActionType>
                  size="small"
                  value={action.type}
                  popupMatchSelectWidth={false}
                  data-testid={`cron-action-${i}-type`}
                  options={CRON_ACTION_TYPES.map((type) => ({ value: type, label: t(`cron.ui_type_${type}`) }))}
                  onChange={(type) =>
                    setList(
                      list.map((a, j) =>
                        j === i ? { ...newAction(type), onFailure: a.onFailure, timeoutSeconds: a.timeoutSeconds } : a,
                      ),
                    )
                  }
                />
              </Space>
            }
            extra={
              <Space size={2}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  aria-label={t('cron.ui_moveUp')}
                  disabled={i === 0}
                  onClick={() => setList(moveItem(list, i, -1))}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  aria-label={t('cron.ui_moveDown')}
                  disabled={i === list.length - 1}
                  onClick={() => setList(moveItem(list, i, 1))}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('cron.ui_removeAction')}
                  onClick={() => setList(list.filter((_, j) => j !== i))}
                />
              </Space>
            }
          >
            <ActionFields index={i} action={action} />
            <Space wrap size={[16, 0]}>
              <Form.Item
                name={['actions', i, 'timeoutSeconds']}
                label={t('cron.ui_timeout')}
                rules={[taskRule(t, ['actions', i, 'timeoutSeconds'])]}
              >
                <InputNumber precision={0} suffix="s" />
              </Form.Item>
              <Form.Item name={['actions', i, 'onFailure']} label={t('cron.ui_onFailure')}>
                <Radio.Group
                  optionType="button"
                  size="small"
                  options={[
                    { value: 'stop', label: t('cron.ui_onFailure_stop') },
                    { value: 'continue', label: t('cron.ui_onFailure_continue') },
                  ]}
                />
              </Form.Item>
            </Space>
          </Card>
        ))}
        <Dropdown
          trigger={['click']}
          disabled={list.length >= CRON_LIMITS.actionsPerTask}
          menu={{
            items: CRON_ACTION_TYPES.map((type) => ({
              key: type,
              label: t(`cron.ui_type_${type}`),
            })),
            onClick: ({ key }) => setList([...list, newAction(key as CronActionType)]),
          }}
        >
          <Button icon={<PlusOutlined />} data-testid="cron-add-action" block type="dashed">
            {t('cron.ui_addAction')}
          </Button>
        </Dropdown>
      </div>
    </Form.Item>
  );
}

function ActionFields({ index, action }: { index: number; action: CronActionInput }) {
  const { t } = useTranslation();
  const at = (field: string) => ['actions', index, field];
  const item = (field: string, label: string, control: React.ReactNode, extra?: string) => (
    <Form.Item name={at(field)} label={label} extra={extra} rules={[taskRule(t, at(field))]}>
      {control}
    </Form.Item>
  );
  switch (action.type) {
    case 'shell':
      return (
        <>
          {item(
            'command',
            t('cron.ui_command'),
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              className="cron-mono"
              spellCheck={false}
              data-testid={`cron-action-${index}-command`}
            />,
          )}
          {item(
            'env',
            t('cron.ui_env'),
            <Input.TextArea
              autoSize={{ minRows: 1, maxRows: 6 }}
              className="cron-mono"
              placeholder="NAME=value"
              data-testid={`cron-action-${index}-env`}
            />,
            t('cron.ui_envHint'),
          )}
          {item('cwd', t('cron.ui_cwd'), <Input className="cron-mono" placeholder={t('cron.ui_cwdPlaceholder')} />)}
        </>
      );
    case 'http':
      return (
        <>
          <div className="cron-row">
            {item(
              'method',
              t('cron.ui_method'),
              <Select className="cron-method" options={CRON_HTTP_METHODS.map((m) => ({ value: m, label: m }))} />,
            )}
            {item('url', t('cron.ui_url'), <Input placeholder="https://" className="cron-mono" />)}
          </div>
          {item(
            'headers',
            t('cron.ui_headers'),
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} className="cron-mono" placeholder="Name: value" />,
          )}
          {item(
            'body',
            t('cron.ui_body'),
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 8 }} className="cron-mono" />,
          )}
          {item('expectStatus', t('cron.ui_expectStatus'), <Input className="cron-mono" placeholder="200-299" />)}
        </>
      );
    case 'module':
      return (
        <Space wrap size={[16, 0]}>
          {item(
            'module',
            t('cron.ui_module'),
            <Select
              className="cron-select"
              showSearch
              optionFilterProp="label"
              options={SWITCHABLE.map((m) => ({ value: m, label: t(`menu.${m}`) }))}
            />,
          )}
          <Form.Item name={at('enabled')} label={t('cron.ui_switchTo')} valuePropName="checked">
            <Switch checkedChildren={t('cron.ui_on')} unCheckedChildren={t('cron.ui_off')} />
          </Form.Item>
        </Space>
      );
    case 'action':
      return <ModuleActionFields index={index} action={action} />;
    case 'backup':
      return (
        <Space wrap size={[16, 0]}>
          {item(
            'folder',
            t('cron.ui_folder'),
            <Input className="cron-mono cron-folder" placeholder="/var/backups/lucky" />,
          )}
          {item('keep', t('cron.ui_keep'), <InputNumber precision={0} />)}
        </Space>
      );
  }
}

/** Module, action and target from what the modules offer (GET /api/modules/actions). */
function ModuleActionFields({
  index,
  action,
}: {
  index: number;
  action: Extract<CronActionInput, { type: 'action' }>;
}) {
  const { t } = useTranslation();
  const offered = useQuery({ queryKey: cronKeys.actions, queryFn: ({ signal }) => fetchModuleActions(signal) });
  const views: ModuleActionView[] = offered.data?.list ?? [];
  const modules = [...new Set(views.map((v) => v.module))];
  const view = views.find((v) => v.module === action.module && v.name === action.action);
  const at = (field: string) => ['actions', index, field];
  const targetField = targetFieldOf(action.module, action.action);
  return (
    <Space wrap size={[16, 0]}>
      <Form.Item name={at('module')} label={t('cron.ui_module')} rules={[taskRule(t, at('module'))]}>
        <Select
          className="cron-select"
          loading={offered.isLoading}
          options={modules.map((m) => ({ value: m, label: t(`menu.${m}`) }))}
        />
      </Form.Item>
      <Form.Item name={at('action')} label={t('cron.ui_actionName')} rules={[taskRule(t, at('action'))]}>
        <Select
          className="cron-select"
          options={views
            .filter((v) => v.module === action.module)
            .map((v) => ({ value: v.name, label: t(`cron.ui_offered_${v.name}`, { defaultValue: v.name }) }))}
        />
      </Form.Item>
      {view && view.targets.length > 0 && (
        <Form.Item name={['actions', index, 'input', targetField]} label={t('cron.ui_target')}>
          <Select className="cron-select" options={view.targets.map((x) => ({ value: x.key, label: x.name }))} />
        </Form.Item>
      )}
    </Space>
  );
}

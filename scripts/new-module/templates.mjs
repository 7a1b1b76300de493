// The files `npm run new-module -- <key>` writes. Each follows the module contract
// (docs/adding-a-module.md); the comments in them say where a real module grows.

export function templates(key, Name) {
  // Identifiers use the camel-case form of a snake_case key (wanji_admin → wanjiAdmin).
  const id = key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
  const K = key.toUpperCase();
  const files = {};

  files[`packages/shared/src/modules/${key}.ts`] =
    `// The ${key} module's shared half: config schema, issue codes, API bodies and views.
import { z } from 'zod';
import { moduleSwitchShape } from '../contract/switch.js';
import { isHostName, isIp } from '../net.js';
import { issueKit } from './fieldIssue.js';

/** Issue codes (the zod messages of the schemas) with their English text; the UI translates \`${key}.err_<code>\`. */
export const ${K}_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another item has this name',
  hostInvalid: 'not a host name or IP address',
  itemNotFound: 'no such item',
} as const;
export type ${Name}IssueCode = keyof typeof ${K}_MESSAGES;
export const ${id}Issues = issueKit(${K}_MESSAGES);

const itemShape = {
  name: z.string().trim().min(1, 'nameRequired').max(64),
  enabled: z.boolean().default(true),
  host: z
    .string()
    .trim()
    .max(253)
    .refine((h) => h === '' || isHostName(h) || isIp(h), 'hostInvalid')
    .default(''),
  /** A whole-value secret: read as SECRET_MASK, kept when sent back so. */
  secret: z.string().max(256).default(''),
};

/** An item as the browser sends it (the server assigns the key). */
export const ${id}ItemInputSchema = z.object(itemShape);
export const ${id}ItemSchema = z.object({ key: z.string().regex(/^[A-Za-z0-9]{1,32}$/), ...itemShape });

/** The config slice; \`{}\` parses to the module switched on with no items. */
export const ${id}ConfigSchema = z.object({
  ...moduleSwitchShape(true),
  items: z.array(${id}ItemSchema).max(256).default([]),
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const ${K}_SECRETS = ['items.*.secret'] as const;

export type ${Name}ItemInput = z.input<typeof ${id}ItemInputSchema>;
export type ${Name}Item = z.infer<typeof ${id}ItemSchema>;
export type ${Name}Config = z.infer<typeof ${id}ConfigSchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

/** An item as read: its secret masked. */
export type ${Name}ItemView = ${Name}Item;

export interface ${Name}ListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: ${Name}ItemView[];
}

export interface ${Name}ItemResponse {
  ret: 0;
  item: ${Name}ItemView;
}
`;

  files[`packages/server/src/modules/${key}/index.ts`] =
    `import { ${K}_SECRETS, type ${Name}Config, ${id}ConfigSchema, ${id}Issues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { register${Name}Routes } from './routes.js';
import { ${Name}Runtime } from './runtime.js';

/** ${Name}: a list of items (scaffolded by \`npm run new-module\`; see docs/adding-a-module.md). */
export const ${id}Module: ModuleDefinition<${Name}Config> = {
  key: '${key}',
  configSchema: ${id}ConfigSchema,
  issues: ${id}Issues,
  secrets: ${K}_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: '${key}', item: i.name } })),
  createRuntime: (ctx) => new ${Name}Runtime(ctx),
  routes: register${Name}Routes,
};
`;

  files[`packages/server/src/modules/${key}/runtime.ts`] = `import type { ${Name}Config } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/**
 * The running module. The supervisor starts it only while the module switch is on, calls
 * \`reload\` with each saved config (after the routes' checks), and stops it on shutdown.
 */
export class ${Name}Runtime implements ModuleRuntime<${Name}Config> {
  private config: ${Name}Config | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: ${Name}Config): Promise<void> {
    this.config = config;
    this.ctx.log.info(\`started with \${config.items.length} items\`);
  }

  async reload(next: ${Name}Config): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    const items = this.config?.items ?? [];
    const enabled = items.filter((i) => i.enabled).length;
    // Nothing switched on: the module is on but does nothing (the overview says stopped, not running).
    return {
      state: enabled > 0 ? ('running' as const) : ('stopped' as const),
      details: { items: items.length, enabled },
    };
  }
}
`;

  files[`packages/server/src/modules/${key}/routes.ts`] = `import {
  ${K}_SECRETS,
  type ${Name}Config,
  type ${Name}Item,
  type ${Name}ItemResponse,
  type ${Name}ItemView,
  type ${Name}ListResponse,
  enabledBodySchema,
  maskSecrets,
  ${id}Issues,
  ${id}ItemInputSchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';

const itemSecrets = ${K}_SECRETS.map((p) => p.replace(/^items\\.\\*\\./, ''));
const view = (item: ${Name}Item): ${Name}ItemView => maskSecrets(item, itemSecrets);

const refuse = (field: string, code: 'nameTaken' | 'itemNotFound', status = 400) =>
  fieldFailure({ field, code, params: {}, msg: ${id}Issues.describe(code) }, status);

/** REST calls of the ${key} module: /api/${key}/items … (bodies parsed by the registry). */
export function register${Name}Routes(r: Routes, api: ModuleApi<${Name}Config>): void {
  const serial = serialQueue();
  const find = (config: ${Name}Config, key: string) => {
    const item = config.items.find((i) => i.key === key);
    if (!item) throw refuse('key', 'itemNotFound', 404);
    return item;
  };
  const uniqueName = (config: ${Name}Config, name: string, key?: string) => {
    if (config.items.some((i) => i.name === name && i.key !== key)) throw refuse('name', 'nameTaken');
  };

  r.add({
    method: 'GET',
    path: '/api/${key}/items',
    access: 'token',
    summary: '${Name}: the module switch and every item (secrets masked)',
    handler: (): ${Name}ListResponse => {
      const config = api.config();
      return { ret: 0, enabled: config.enabled, list: config.items.map(view) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/${key}/items',
    access: 'token',
    summary: '${Name}: add an item (the server assigns its key)',
    body: ${id}ItemInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<${Name}ItemResponse> => {
        const prev = api.config();
        uniqueName(prev, input.body.name);
        const item = { ...input.body, key: newKey(prev.items) };
        await api.saveConfig({ ...prev, items: [...prev.items, item] });
        return { ret: 0, item: view(find(api.config(), item.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/${key}/items/:key',
    access: 'token',
    summary: '${Name}: replace an item (a secret sent back masked is kept)',
    body: ${id}ItemInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<${Name}ItemResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        uniqueName(prev, input.body.name, old.key);
        const item = { ...input.body, key: old.key };
        await api.saveConfig({ ...prev, items: prev.items.map((i) => (i.key === old.key ? item : i)) });
        return { ret: 0, item: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/${key}/items/:key/enable',
    access: 'token',
    summary: '${Name}: switch an item on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<${Name}ItemResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const items = prev.items.map((i) => (i.key === old.key ? { ...i, enabled: input.body.enabled } : i));
        await api.saveConfig({ ...prev, items });
        return { ret: 0, item: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/${key}/items/:key',
    access: 'token',
    summary: '${Name}: delete an item',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        await api.saveConfig({ ...prev, items: prev.items.filter((i) => i.key !== old.key) });
        return { ret: 0 };
      }),
  });
}
`;

  files[`packages/web/src/modules/${key}/${Name}Screen.tsx`] =
    `// The ${key} screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  type ${Name}ItemInput,
  type ${Name}ItemResponse,
  type ${Name}ItemView,
  type ${Name}ListResponse,
  SECRET_MASK,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/${key}';
const listKey = ['${key}', 'items'] as const;

export default function ${Name}Screen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: listKey, queryFn: ({ signal }) => get<${Name}ListResponse>(\`\${BASE}/items\`, { signal }) });
  const [editing, setEditing] = useState<${Name}ItemView | 'new' | undefined>();
  const [form] = Form.useForm<${Name}ItemInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['${key}'] });

  // The one form-error hook: a refusal beside its field in the user's language (${key}.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: '${key}' });

  const open = (item: ${Name}ItemView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<${Name}ItemResponse>(\`\${BASE}/items\`, values, { silent: true });
      else if (editing) await put<${Name}ItemResponse>(\`\${BASE}/items/\${encodeURIComponent(editing.key)}\`, values, { silent: true });
      errors.clear();
      setEditing(undefined);
      void message.success(t('${key}.saved'));
      await refresh();
    } catch (err) {
      errors.show(err);
    }
  };
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await refresh();
    } catch {
      // Not silent: the request client has shown the failure in the user's language.
      await refresh();
    }
  };

  const data = list.data;
  return (
    <Card
      title={t('menu.${key}')}
      data-testid="${key}-screen"
      extra={
        <Space>
          <span>{t('${key}.moduleSwitch')}</span>
          <Switch
            data-testid="${key}-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(\`api/modules/${key}/enabled\`, { enabled: on }))}
          />
          <Button type="primary" data-testid="${key}-add" onClick={() => open('new')}>
            {t('${key}.add')}
          </Button>
        </Space>
      }
    >
      <Table<${Name}ItemView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('${key}.empty') }}
        columns={[
          { title: t('${key}.name'), dataIndex: 'name' },
          { title: t('${key}.host'), dataIndex: 'host', render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text> },
          {
            title: t('${key}.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, item) => (
              <Switch size="small" checked={on} onChange={(v) => act(() => put(\`\${BASE}/items/\${encodeURIComponent(item.key)}/enable\`, { enabled: v }))} />
            ),
          },
          {
            title: t('common.actions'),
            render: (_v, item) => (
              <Space>
                <Button size="small" onClick={() => open(item)}>
                  {t('${key}.edit')}
                </Button>
                <Popconfirm title={t('${key}.deleteConfirm', { name: item.name })} onConfirm={() => act(() => del(\`\${BASE}/items/\${encodeURIComponent(item.key)}\`))}>
                  <Button size="small" danger>
                    {t('${key}.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? '${key}.add' : '${key}.edit')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        onOk={save}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onValuesChange={errors.onValuesChange} initialValues={{ name: '', host: '', secret: '', enabled: true }}>
          <Form.Item name="name" label={t('${key}.name')} rules={[{ required: true, message: t('${key}.err_nameRequired') }]}>
            <Input data-testid="${key}-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="host" label={t('${key}.host')}>
            <Input data-testid="${key}-host" />
          </Form.Item>
          <Form.Item name="secret" label={t('${key}.secret')} extra={t('${key}.secretHint', { mask: SECRET_MASK })}>
            <Input.Password data-testid="${key}-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('${key}.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
`;

  const locales = {
    zh_CN: {
      menu: Name,
      ns: {
        moduleSwitch: '模块开关',
        add: '添加',
        edit: '编辑',
        delete: '删除',
        deleteConfirm: '确定删除 {{name}}？',
        empty: '暂无条目',
        saved: '已保存',
        name: '名称',
        host: '主机',
        secret: '密钥',
        secretHint: '已保存的密钥显示为 {{mask}}；不修改则保留原值',
        enabled: '启用',
        err_nameRequired: '请填写名称',
        err_nameTaken: '已有同名条目',
        err_hostInvalid: '不是有效的主机名或 IP 地址',
        err_itemNotFound: '条目不存在',
      },
    },
    en_US: {
      menu: Name,
      ns: {
        moduleSwitch: 'Module switch',
        add: 'Add',
        edit: 'Edit',
        delete: 'Delete',
        deleteConfirm: 'Delete {{name}}?',
        empty: 'No items',
        saved: 'Saved',
        name: 'Name',
        host: 'Host',
        secret: 'Secret',
        secretHint: 'A saved secret shows as {{mask}}; leave it to keep it',
        enabled: 'Enabled',
        err_nameRequired: 'A name is required',
        err_nameTaken: 'Another item has this name',
        err_hostInvalid: 'Not a host name or IP address',
        err_itemNotFound: 'No such item',
      },
    },
  };
  return { files, locales };
}

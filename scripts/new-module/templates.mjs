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

  files[`packages/web/src/modules/${key}/api.ts`] =
    `// The ${key} module's calls and the screen's queries. One key root, so every change re-reads all.
import type { ${Name}ItemInput, ${Name}ItemResponse, ${Name}ListResponse } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/${key}';
export const ${id}Keys = { all: ['${key}'] as const, items: ['${key}', 'items'] as const };
const itemPath = (key: string) => \`\${BASE}/items/\${encodeURIComponent(key)}\`;

export const fetchItems = (signal?: AbortSignal) => get<${Name}ListResponse>(\`\${BASE}/items\`, { signal });

/** Adds (no key) or replaces an item. Silent: the dialog shows a refusal beside its field. */
export const saveItem = (input: ${Name}ItemInput, key?: string) =>
  key
    ? put<${Name}ItemResponse>(itemPath(key), input, { silent: true })
    : post<${Name}ItemResponse>(\`\${BASE}/items\`, input, { silent: true });

export function use${Name}List(intervalMs: number) {
  return useQuery({
    queryKey: ${id}Keys.items,
    queryFn: ({ signal }) => fetchItems(signal),
    refetchInterval: intervalMs,
    refetchIntervalInBackground: false,
  });
}

/** The list's actions, each re-reading the list after it; a failure the request client shows. */
export function use${Name}Actions() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ${id}Keys.all });
  const run = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch {
      // Not silent: the request client has shown the failure in the user's language.
    }
    await refresh();
  };
  return {
    refresh,
    setModuleEnabled: (on: boolean) => run(() => put('api/modules/${key}/enabled', { enabled: on })),
    setItemEnabled: (key: string, on: boolean) => run(() => put(\`\${itemPath(key)}/enable\`, { enabled: on })),
    remove: (key: string) => run(() => del(itemPath(key))),
  };
}
`;

  files[`packages/web/src/modules/${key}/errors.ts`] =
    `// Failures of the ${key} calls in the user's language: the server names a stable code (${K}_MESSAGES
// or a generic one) with its params, read as \`${key}.err_<code>\`.
import { ${K}_MESSAGES, GENERIC_ISSUE_MESSAGES, type ${Name}IssueCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';

const isIssueCode = (c: unknown): c is ${Name}IssueCode =>
  typeof c === 'string' && (Object.hasOwn(${K}_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, '${key}', issue));
}
`;

  files[`packages/web/src/modules/${key}/ItemDialog.tsx`] =
    `// Add / edit an item in the shared dialog frame: the form's own checks, then the save; a refusal
// of the server (a taken name, a bad host) lands beside its field in the user's language.
import { SECRET_MASK, type ${Name}ItemInput, type ${Name}ItemView } from '@lucky/shared';
import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { saveItem } from './api';

export interface ItemDialogProps {
  open: boolean;
  /** The item edited; none = a new one. */
  item?: ${Name}ItemView;
  onClose: () => void;
  onSaved: () => void;
}

const EMPTY: ${Name}ItemInput = { name: '', host: '', secret: '', enabled: true };

export function ItemDialog({ open, item, onClose, onSaved }: ItemDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<${Name}ItemInput>();
  const errors = useFormErrors(form, { ns: '${key}' });
  return (
    <FormDialog<${Name}ItemInput>
      open={open}
      title={t(item ? '${key}.edit' : '${key}.add')}
      onClose={onClose}
      form={form}
      errors={errors}
      testId="${key}-item"
      width={520}
      initialValues={item ?? EMPTY}
      onSave={async (saved) => {
        const { name, host, secret, enabled }: ${Name}ItemInput = form.getFieldsValue(true);
        await saveItem({ name, host, secret, enabled }, item?.key);
        saved(t('${key}.saved'));
        onSaved();
        return undefined;
      }}
    >
      <Form.Item
        name="name"
        label={t('${key}.name')}
        rules={[{ required: true, whitespace: true, message: t('${key}.err_nameRequired') }]}
      >
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
    </FormDialog>
  );
}
`;

  files[`packages/web/src/modules/${key}/${Name}Screen.tsx`] =
    `// The ${key} screen: the shared header (module switch, updated-at, refresh) and notices (load
// failure, module off), the item list with each item's switch, and the add / edit dialog.
import { PlusOutlined } from '@ant-design/icons';
import type { ${Name}ItemView } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { use${Name}Actions, use${Name}List } from './api';
import { errorText } from './errors';
import { ItemDialog } from './ItemDialog';

const DEFAULT_INTERVAL_MS = 5000;

/** The dialog's state: \`seq\` keys it, so each opening starts from a fresh form. */
interface Editing {
  seq: number;
  open: boolean;
  item?: ${Name}ItemView;
}

export default function ${Name}Screen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const list = use${Name}List(intervalMs);
  const actions = use${Name}Actions();
  const moduleSwitch = useModuleSwitch(actions.setModuleEnabled);
  const [editing, setEditing] = useState<Editing>({ seq: 0, open: false });
  const open = (item?: ${Name}ItemView) => setEditing((d) => ({ seq: d.seq + 1, open: true, item }));
  const close = () => setEditing((d) => ({ ...d, open: false }));
  const data = list.data;
  const moduleOn = data?.enabled ?? false;

  return (
    <div className="screen" data-testid="${key}-screen">
      <ModuleHeader
        title={t('menu.${key}')}
        prefix="${key}"
        moduleSwitch={
          data && {
            checked: moduleOn,
            onChange: (on) => void moduleSwitch.toggle(on),
            busy: moduleSwitch.busy,
            label: t('${key}.moduleSwitch'),
            testId: '${key}-module-switch',
            words: { on: t('${key}.moduleOn'), off: t('${key}.moduleOff') },
          }
        }
        query={list}
        updatedAtKey="${key}.updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
      >
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open()} data-testid="${key}-add">
          {t('${key}.add')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="${key}"
        loadError={list.isError && !data && { title: t('${key}.loadError'), description: errorText(list.error, t) }}
        off={
          data &&
          !moduleOn && {
            title: t('${key}.moduleDisabled'),
            help: t('${key}.moduleDisabledHelp'),
            enable: { text: t('${key}.enableModule'), onClick: () => void moduleSwitch.toggle(true) },
          }
        }
        loading={!data && list.isPending}
      />

      {data && (
        <Card size="small">
          <Table<${Name}ItemView>
            rowKey="key"
            size="small"
            dataSource={data.list}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('${key}.empty') }}
            columns={[
              { title: t('${key}.name'), dataIndex: 'name' },
              {
                title: t('${key}.host'),
                dataIndex: 'host',
                render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
              },
              {
                title: t('${key}.enabled'),
                dataIndex: 'enabled',
                render: (on: boolean, item) => (
                  <Switch
                    size="small"
                    checked={on}
                    onChange={(v) => void actions.setItemEnabled(item.key, v)}
                    data-testid={\`${key}-item-switch-\${item.key}\`}
                  />
                ),
              },
              {
                title: t('common.actions'),
                render: (_v, item) => (
                  <Space>
                    <Button size="small" onClick={() => open(item)} data-testid={\`${key}-edit-\${item.key}\`}>
                      {t('${key}.edit')}
                    </Button>
                    <Popconfirm
                      title={t('${key}.deleteConfirm', { name: item.name })}
                      onConfirm={() => actions.remove(item.key)}
                    >
                      <Button size="small" danger>
                        {t('${key}.delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      )}

      <ItemDialog
        key={\`item-\${editing.seq}\`}
        open={editing.open}
        item={editing.item}
        onClose={close}
        onSaved={() => {
          close();
          void actions.refresh();
        }}
      />
    </div>
  );
}
`;

  files[`packages/web/src/modules/${key}/${Name}Screen.test.tsx`] =
    `import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zh from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import ${Name}Screen from './${Name}Screen';

let net: FakeFetch;
beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const ITEM = { key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: '******' };
const calls = (method: string, path: string) =>
  net.fn.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));

describe('${key} screen', () => {
  it('lists the items and switches the module off in the header and on from the notice', async () => {
    let on = true;
    net.route('api/${key}/items', () => ({ body: { ret: 0, enabled: on, list: [ITEM] } }));
    net.route('api/modules/${key}/enabled', (_url, init) => {
      on = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, status: { key: '${key}', state: on ? 'running' : 'disabled', enabled: on } } };
    });
    renderWithProviders(<${Name}Screen />);
    expect(await screen.findByText('sample')).toBeTruthy();
    await userEvent.click(screen.getByTestId('${key}-module-switch'));
    expect(await screen.findByTestId('${key}-module-disabled')).toBeTruthy();
    expect(bodyOf(calls('PUT', 'api/modules/${key}/enabled')[0])).toEqual({ enabled: false });
    await userEvent.click(screen.getByTestId('${key}-module-enable'));
    await waitFor(() => expect(screen.queryByTestId('${key}-module-disabled')).toBeNull());
    expect(bodyOf(calls('PUT', 'api/modules/${key}/enabled')[1])).toEqual({ enabled: true });
  });

  it('shows a refused name beside its field in the user language and keeps the dialog open', async () => {
    net.route('api/${key}/items', (_url, init) =>
      init.method === 'POST'
        ? { status: 400, body: { ret: 1, msg: 'another item has this name', field: 'name', code: 'nameTaken' } }
        : { body: { ret: 0, enabled: true, list: [ITEM] } },
    );
    renderWithProviders(<${Name}Screen />);
    await userEvent.click(await screen.findByTestId('${key}-add'));
    await userEvent.click(await screen.findByTestId('${key}-item-save'));
    expect(await screen.findByText(zh.${key}.err_nameRequired)).toBeTruthy();
    expect(calls('POST', 'api/${key}/items')).toHaveLength(0);
    await userEvent.type(screen.getByTestId('${key}-name'), 'sample');
    await userEvent.click(screen.getByTestId('${key}-item-save'));
    const name = screen.getByTestId('${key}-name').closest('.ant-form-item') as HTMLElement;
    expect(await within(name).findByText(zh.${key}.err_nameTaken)).toBeTruthy();
    expect(bodyOf(calls('POST', 'api/${key}/items')[0])).toEqual({ name: 'sample', host: '', secret: '', enabled: true });
    expect(screen.getByTestId('${key}-item-form')).toBeTruthy();
  });
});
`;

  const locales = {
    zh_CN: {
      menu: Name,
      ns: {
        moduleSwitch: '模块开关',
        moduleOn: '已开启',
        moduleOff: '已关闭',
        updatedAt: '更新于 {{time}}',
        loadError: '无法读取列表',
        moduleDisabled: '模块已关闭',
        moduleDisabledHelp: '模块关闭时条目都不生效',
        enableModule: '开启模块',
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
        moduleOn: 'On',
        moduleOff: 'Off',
        updatedAt: 'Updated at {{time}}',
        loadError: 'Could not read the list',
        moduleDisabled: 'The module is off',
        moduleDisabledHelp: 'No item works while the module is off',
        enableModule: 'Switch on',
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

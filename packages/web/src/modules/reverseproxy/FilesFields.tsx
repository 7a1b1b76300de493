// File server: the mounts (URL path → local folder, with a display name) and
// how folders are served. `store` mounts come with the storage module; until
// then only local folders can be chosen.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { issueText } from './errors';
import { checkMountDir, checkMountPath, type NamePath } from './serviceForm';
import { issueRule } from './validators';

export interface FilesFieldsProps {
  prefix: NamePath;
  hidden: boolean;
}

export function FilesFields({ prefix, hidden }: FilesFieldsProps) {
  const { t } = useTranslation();
  const n = (...p: NamePath): NamePath => [...prefix, ...p];
  return (
    <>
      <Form.Item label={t('reverseproxy.mounts')} hidden={hidden} required extra={t('reverseproxy.mountsHelp')}>
        <Form.List
          name={n('mounts')}
          rules={[
            {
              validator: async (_, list: unknown[] | undefined) => {
                if (!hidden && (list ?? []).length === 0) throw new Error(issueText(t, { code: 'mountRequired' }));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <div className="rp-rows" data-testid="rp-mounts">
              {fields.map((f) => (
                <div key={f.key} className="rp-row rp-mount-row">
                  <Form.Item
                    name={[f.name, 'urlPath']}
                    className="rp-row-item rp-mount-path"
                    rules={[issueRule(t, (v) => (hidden ? undefined : checkMountPath(v as string)))]}
                  >
                    <Input className="mono" placeholder="/" aria-label={t('reverseproxy.mountPath')} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'type']} className="rp-row-item rp-mount-type">
                    <Select
                      aria-label={t('reverseproxy.mountType')}
                      options={[
                        { value: 'local', label: t('reverseproxy.mount_local') },
                        { value: 'store', label: t('reverseproxy.mount_store'), disabled: true },
                      ]}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'dir']}
                    className="rp-row-item rp-mount-dir"
                    rules={[issueRule(t, (v) => (hidden ? undefined : checkMountDir(v as string)))]}
                  >
                    <Input
                      className="mono"
                      placeholder={t('reverseproxy.mountDirPlaceholder')}
                      aria-label={t('reverseproxy.mountDir')}
                      data-testid={`rp-mount-dir-${f.name}`}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'name']} className="rp-row-item rp-mount-name">
                    <Input placeholder={t('reverseproxy.mountName')} aria-label={t('reverseproxy.mountName')} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    onClick={() => remove(f.name)}
                    aria-label={t('reverseproxy.remove')}
                  />
                </div>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ urlPath: '/', type: 'local', dir: '', name: '' })}
                data-testid="rp-mount-add"
              >
                {t('reverseproxy.addMount')}
              </Button>
              <Form.ErrorList errors={errors} />
            </div>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item
        name={n('indexFile')}
        label={t('reverseproxy.indexFile')}
        hidden={hidden}
        extra={t('reverseproxy.indexFileHelp')}
      >
        <Input className="mono" placeholder="index.html" style={{ maxWidth: 260 }} allowClear />
      </Form.Item>
      <Form.Item
        name={n('listDirs')}
        label={t('reverseproxy.listDirs')}
        hidden={hidden}
        valuePropName="checked"
        extra={t('reverseproxy.listDirsHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name={n('hiddenFiles')}
        label={t('reverseproxy.hiddenFiles')}
        hidden={hidden}
        valuePropName="checked"
        extra={t('reverseproxy.hiddenFilesHelp')}
      >
        <Switch />
      </Form.Item>
    </>
  );
}

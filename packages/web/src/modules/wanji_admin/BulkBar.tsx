// The bulk toolbar, shown while rows are selected: back up (one zip of every console's config),
// update from a signed release package (uploaded once; the manager checks the signature before
// anything leaves), restart (confirmed), switch a module on or off. Each action ends in the
// results dialog: every console with ok or why not.
import { CloudDownloadOutlined, CloudUploadOutlined, PoweroffOutlined, SwapOutlined } from '@ant-design/icons';
import { BUILT_MODULES, type WanjiBulkResult } from '@lucky/shared';
import { App, Button, Form, Modal, Popconfirm, Progress, Radio, Select, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../api/client';
import { bulkBackup, bulkModule, bulkRestart, bulkUpdate } from './api';
import type { BulkAction, BulkOutcome } from './BulkResultsDialog';
import { errorText } from './errors';
import { readZipEntry } from './zipEntry';

/** results.json of a backup zip: the bulk results (or `{ results }`); undefined when it is not that. */
function parseResults(text: string): WanjiBulkResult[] | undefined {
  try {
    const v: unknown = JSON.parse(text);
    const list = Array.isArray(v) ? v : (v as { results?: unknown })?.results;
    return Array.isArray(list) && list.every((r) => typeof r?.key === 'string' && typeof r?.ok === 'boolean')
      ? (list as WanjiBulkResult[])
      : undefined;
  } catch {
    return undefined;
  }
}

export interface BulkBarProps {
  keys: string[];
  /** Names of the selected consoles, for the confirmations. */
  names: string[];
  onDone: (outcome: BulkOutcome) => void;
  onClear: () => void;
}

/** When the server names no file. */
const BACKUP_NAME = 'wanji-backup.zip';

export function BulkBar({ keys, names, onDone, onClear }: BulkBarProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<BulkAction | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const [moduleOpen, setModuleOpen] = useState(false);
  const [form] = Form.useForm<{ module: string; enabled: boolean }>();

  const run = async (action: BulkAction, call: () => Promise<WanjiBulkResult[] | undefined>) => {
    setBusy(action);
    try {
      const results = await call();
      if (results) onDone({ action, results });
    } catch (err) {
      const text = errorText(err, t);
      if (text) void message.error({ content: text, duration: 10 });
    } finally {
      setBusy(undefined);
      setProgress(undefined);
    }
  };

  const backup = () =>
    run('backup', async () => {
      const d = await bulkBackup(keys);
      saveBlob(d.blob, d.filename ?? BACKUP_NAME);
      // The zip lists every console's outcome in results.json: the same dialog as the other actions.
      const listed = await readZipEntry(d.blob, 'results.json').catch(() => undefined);
      const results = listed ? parseResults(listed) : undefined;
      if (!results) void message.success(t('wanji_admin.ui_backupSaved'));
      return results;
    });

  const update = (file: File) => run('update', async () => (await bulkUpdate(keys, file, setProgress)).results);

  const switchModule = async () => {
    const v = await form.validateFields();
    setModuleOpen(false);
    await run('module', async () => (await bulkModule(keys, v.module, v.enabled)).results);
  };

  return (
    <div className="wanji-bulk" data-testid="wanji-bulk">
      <Typography.Text strong>{t('wanji_admin.ui_selected', { count: keys.length })}</Typography.Text>
      <Space wrap>
        <Button
          icon={<CloudDownloadOutlined />}
          loading={busy === 'backup'}
          disabled={busy !== undefined}
          onClick={() => void backup()}
          data-testid="wanji-bulk-backup"
        >
          {t('wanji_admin.ui_bulkBackup')}
        </Button>
        <Upload
          accept=".tar.gz,.tgz,.zip"
          showUploadList={false}
          disabled={busy !== undefined}
          beforeUpload={(file) => {
            void update(file);
            return false;
          }}
        >
          <Button
            icon={<CloudUploadOutlined />}
            loading={busy === 'update'}
            disabled={busy !== undefined}
            data-testid="wanji-bulk-update"
          >
            {t('wanji_admin.ui_bulkUpdate')}
          </Button>
        </Upload>
        {busy === 'update' && progress !== undefined && (
          <Progress percent={progress} size="small" style={{ width: 120 }} />
        )}
        <Popconfirm
          title={t('wanji_admin.ui_restartConfirm', { names: names.join(t('common.listSep')) })}
          okText={t('wanji_admin.ui_bulkRestart')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'wanji-bulk-restart-ok' }}
          onConfirm={() => void run('restart', async () => (await bulkRestart(keys)).results)}
        >
          <Button
            danger
            icon={<PoweroffOutlined />}
            loading={busy === 'restart'}
            disabled={busy !== undefined}
            data-testid="wanji-bulk-restart"
          >
            {t('wanji_admin.ui_bulkRestart')}
          </Button>
        </Popconfirm>
        <Button
          icon={<SwapOutlined />}
          loading={busy === 'module'}
          disabled={busy !== undefined}
          onClick={() => setModuleOpen(true)}
          data-testid="wanji-bulk-module"
        >
          {t('wanji_admin.ui_bulkModule')}
        </Button>
        <Button type="link" onClick={onClear}>
          {t('wanji_admin.ui_clearSelection')}
        </Button>
      </Space>
      <Modal
        open={moduleOpen}
        title={t('wanji_admin.dialog_moduleTitle', { count: keys.length })}
        onCancel={() => setModuleOpen(false)}
        onOk={() => void switchModule()}
        okText={t('wanji_admin.dialog_moduleOk')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'wanji-module-ok' }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ enabled: true }} preserve={false}>
          <Form.Item
            name="module"
            label={t('wanji_admin.dialog_module')}
            rules={[{ required: true, message: t('wanji_admin.dialog_moduleRequired') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              data-testid="wanji-module-select"
              options={BUILT_MODULES.map((k) => ({ value: k, label: t(`menu.${k}`, { defaultValue: k }) }))}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('wanji_admin.dialog_moduleState')}>
            <Radio.Group optionType="button">
              <Radio.Button value={true}>{t('wanji_admin.dialog_moduleOn')}</Radio.Button>
              <Radio.Button value={false}>{t('wanji_admin.dialog_moduleOff')}</Radio.Button>
            </Radio.Group>
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}

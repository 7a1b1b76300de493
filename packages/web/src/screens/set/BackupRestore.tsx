// Backup: download the whole config. Restore: upload → the server validates and
// holds it → confirm → it applies, restarts (maybe on another port) → reconnect.
import { CloudDownloadOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { App, Button, Progress, Space, Upload } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download, get, saveBlob, upload } from '../../api/client';

interface RestoreUploadReply {
  ret: number;
  file?: string;
  restoreConfigureKey: string;
}

export function BackupRestore({ onRestarting }: { onRestarting: (port?: number) => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [backingUp, setBackingUp] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  const backup = async () => {
    setBackingUp(true);
    try {
      // A large config over a slow link may need more than the usual 5 s.
      const file = await download('api/configure', { timeoutMs: 60_000 });
      saveBlob(file.blob, file.filename ?? `lucky_${dayjs().format('YYYYMMDD_HHmmss')}.json`);
      message.success(t('set.backupDone'));
    } catch {
      // shown by the client
    } finally {
      setBackingUp(false);
    }
  };

  const restore = async (file: File) => {
    setProgress(0);
    let reply: RestoreUploadReply;
    try {
      reply = await upload<RestoreUploadReply>('api/configure', file, { onProgress: setProgress });
    } catch {
      setProgress(null);
      return;
    }
    setProgress(null);
    modal.confirm({
      title: t('set.restoreConfirmTitle'),
      content: t('set.restoreConfirm', { file: reply.file ?? file.name }),
      okText: t('set.restoreApply'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const r = await get<{ ret: number; port?: number }>('api/restoreconfigureconfirm', {
            query: { key: reply.restoreConfigureKey },
          });
          onRestarting(r.port);
        } catch {
          // shown by the client
        }
      },
    });
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Button icon={<CloudDownloadOutlined />} onClick={backup} loading={backingUp} data-testid="backup-button">
          {t('set.backup')}
        </Button>
        <Upload
          accept=".json,application/json"
          showUploadList={false}
          beforeUpload={(file) => {
            void restore(file);
            // We send the file ourselves (token header, progress, ret handling).
            return false;
          }}
        >
          <Button icon={<CloudUploadOutlined />} loading={progress !== null} data-testid="restore-button">
            {t('set.restore')}
          </Button>
        </Upload>
      </Space>
      {progress !== null && <Progress percent={progress} size="small" />}
    </Space>
  );
}

// Upload a release package → the server verifies it and names its version →
// confirm swaps it in and restarts (reconnect), cancel drops the upload.
import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Progress, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get, put, upload } from '../../api/client';

interface UpdateUploadReply {
  ret: number;
  version?: string;
  key: string;
}

export function UpdatePanel({ onRestarting }: { onRestarting: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [progress, setProgress] = useState<number | null>(null);

  const send = async (file: File) => {
    setProgress(0);
    let reply: UpdateUploadReply;
    try {
      reply = await upload<UpdateUploadReply>('api/update', file, { onProgress: setProgress });
    } catch {
      setProgress(null);
      return;
    }
    setProgress(null);
    modal.confirm({
      title: t('set.updateConfirmTitle'),
      content: t('set.updateConfirm', { version: reply.version ?? '?' }),
      okText: t('set.updateApply'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await put('api/update/comfire', { key: reply.key });
          onRestarting();
        } catch {
          // shown by the client
        }
      },
      onCancel: async () => {
        try {
          await get('api/update/cancel', { silent: true });
          message.info(t('set.updateCancelled'));
        } catch {
          // the server drops stale uploads by itself
        }
      },
    });
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Upload
        accept=".tar.gz,.tgz,application/gzip"
        showUploadList={false}
        beforeUpload={(file) => {
          void send(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={progress !== null} data-testid="update-button">
          {t('set.uploadUpdate')}
        </Button>
      </Upload>
      {progress !== null && <Progress percent={progress} size="small" />}
    </Space>
  );
}

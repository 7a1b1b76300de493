// Upload a release package → the server verifies it (checksums and signature) and names its
// version → confirm swaps it in and restarts (reconnect), cancel drops the upload. A package
// without a trusted signature is refused (`releaseUnsigned`): only after a warning the admin
// confirms is it sent again with `allowUnsigned=1`. A bad signature is refused, always.
import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Progress, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, get, put, upload } from '../../api/client';

interface UpdateUploadReply {
  ret: number;
  version?: string;
  key: string;
  signature?: { status: 'trusted' | 'unsigned' | 'unknown-key'; keyId?: string; keyName?: string };
}

export function UpdatePanel({ onRestarting }: { onRestarting: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [progress, setProgress] = useState<number | null>(null);

  const send = async (file: File, allowUnsigned = false) => {
    setProgress(0);
    let reply: UpdateUploadReply;
    try {
      reply = await upload<UpdateUploadReply>('api/update', file, {
        onProgress: setProgress,
        query: allowUnsigned ? { allowUnsigned: '1' } : undefined,
        silent: true,
      });
    } catch (err) {
      setProgress(null);
      if (!(err instanceof ApiError) || err.kind === 'aborted' || err.kind === 'session') return;
      if (err.reply?.code === 'releaseUnsigned' && !allowUnsigned) {
        modal.confirm({
          title: t('set.updateUnsignedTitle'),
          content: t('set.updateUnsignedWarning'),
          okText: t('set.updateUnsignedGoOn'),
          okButtonProps: { danger: true, 'data-testid': 'update-unsigned-go-on' },
          cancelText: t('common.cancel'),
          onOk: () => {
            void send(file, true);
          },
        });
        return;
      }
      message.error(err.message);
      return;
    }
    setProgress(null);
    const trusted = reply.signature?.status === 'trusted';
    modal.confirm({
      title: t('set.updateConfirmTitle'),
      content: (
        <>
          <p>{t('set.updateConfirm', { version: reply.version ?? '?' })}</p>
          <p>
            {trusted
              ? t('set.updateSignedBy', { name: reply.signature?.keyName ?? '', keyId: reply.signature?.keyId ?? '' })
              : t('set.updateNotSigned')}
          </p>
        </>
      ),
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

// The upload panel: one line per file with its progress bar, speed, and cancel / retry.
import { CloseOutlined, RedoOutlined } from '@ant-design/icons';
import { formatSize } from '@lucky/shared';
import { Button, Card, Progress, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { codedText } from './errors';
import { type UploadQueue, uploadQueue, useUploads } from './uploads';

export function UploadPanel({ queue = uploadQueue }: { queue?: UploadQueue }) {
  const { t } = useTranslation();
  const items = useUploads(queue);
  if (items.length === 0) return null;
  const busy = items.filter((i) => i.state === 'queued' || i.state === 'uploading').length;
  return (
    <Card
      size="small"
      className="fb-uploads"
      data-testid="fb-uploads"
      title={busy > 0 ? t('filebrowser.upload_busy', { count: busy }) : t('filebrowser.upload_title')}
      extra={
        <Button size="small" type="link" onClick={() => queue.clearFinished()} data-testid="fb-upload-clear">
          {t('filebrowser.upload_clear')}
        </Button>
      }
    >
      <div className="fb-upload-lines">
        {items.map((u) => {
          const percent = u.size > 0 ? Math.floor((u.sent / u.size) * 100) : u.state === 'done' ? 100 : 0;
          return (
            <div
              key={u.id}
              className="fb-upload-line"
              data-testid="fb-upload"
              data-state={u.state}
              data-path={u.relativePath}
            >
              <div className="fb-upload-top">
                <Typography.Text ellipsis className="fb-upload-name" title={u.relativePath}>
                  {u.relativePath}
                </Typography.Text>
                <Space size={4}>
                  <Typography.Text type="secondary" className="fb-upload-figures">
                    {u.state === 'uploading'
                      ? `${formatSize(u.sent)} / ${formatSize(u.size)} · ${formatSize(Math.round(u.speed))}/s`
                      : t(`filebrowser.upload_state_${u.state}`)}
                  </Typography.Text>
                  {(u.state === 'queued' || u.state === 'uploading') && (
                    <Tooltip title={t('filebrowser.upload_cancel')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<CloseOutlined />}
                        onClick={() => queue.cancel(u.id)}
                        aria-label={t('filebrowser.upload_cancel')}
                      />
                    </Tooltip>
                  )}
                  {(u.state === 'failed' || u.state === 'cancelled') && (
                    <Tooltip title={t('filebrowser.upload_retry')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<RedoOutlined />}
                        onClick={() => queue.retry(u.id)}
                        aria-label={t('filebrowser.upload_retry')}
                      />
                    </Tooltip>
                  )}
                </Space>
              </div>
              <Progress
                percent={percent}
                size="small"
                status={
                  u.state === 'failed'
                    ? 'exception'
                    : u.state === 'done'
                      ? 'success'
                      : u.state === 'uploading'
                        ? 'active'
                        : 'normal'
                }
                showInfo={false}
              />
              {u.error && (
                <Typography.Text type="danger" className="fb-upload-error">
                  {codedText(u.error, t)}
                </Typography.Text>
              )}
            </div>
          );
        })}
      </div>
    </Card>
  );
}

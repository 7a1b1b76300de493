// The preview of a file of the listing, by its type: images in a gallery through the folder's
// images, video and audio in the browser's players and PDF in its viewer (all from the file URL
// with the storage's read ticket; the server answers ranges), text as source with an editor, and
// anything else a download. On a phone it takes the whole window.
import { DownloadOutlined } from '@ant-design/icons';
import type { FilebrowserEntry } from '@lucky/shared';
import { App, Button, Modal, Typography } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { fileUrl } from './api';
import { ImageGallery } from './ImageGallery';
import { joinPath } from './TextEditor';
import { TextPreview } from './TextPreview';
import './parts.css';

export interface PreviewModalProps {
  storage: string;
  dir: string;
  entries: FilebrowserEntry[];
  index: number;
  ticket: string;
  onClose: () => void;
  /** A file was written from the preview (the editor's save): reload the folder. */
  onSaved: () => void;
}

export function PreviewModal({ storage, dir, entries, index, ticket, onClose, onSaved }: PreviewModalProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const layout = useDialogLayout(1100);
  // By name: the listing may be fetched again while the preview is open.
  const [shownName, setShownName] = useState(entries[index]?.name);
  const shown = entries.find((e) => e.name === shownName);
  const dirty = useRef(false);
  const onDirty = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);

  const images = useMemo(() => entries.filter((e) => e.type === 'image' && e.kind === 'file'), [entries]);
  const urlOf = useCallback(
    (e: FilebrowserEntry, download = false) => fileUrl(storage, joinPath(dir, e.name), ticket, download),
    [storage, dir, ticket],
  );
  const moveImage = useCallback((at: number) => setShownName(images[at]?.name), [images]);

  const close = () => {
    if (!dirty.current) return onClose();
    modal.confirm({
      title: t('filebrowser.preview_discardTitle'),
      content: t('filebrowser.preview_discardText'),
      okText: t('filebrowser.preview_discard'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: onClose,
    });
  };

  if (!shown) return null;
  const download = (
    <Button
      icon={<DownloadOutlined />}
      href={urlOf(shown, true)}
      download={shown.name}
      data-testid="fb-preview-download"
    >
      {t('filebrowser.preview_download')}
    </Button>
  );

  let body: React.ReactNode;
  switch (shown.type) {
    case 'image':
      body = (
        <ImageGallery
          images={images}
          at={Math.max(
            0,
            images.findIndex((e) => e.name === shown.name),
          )}
          onMove={moveImage}
          urlOf={urlOf}
        />
      );
      break;
    case 'video':
      body = (
        // biome-ignore lint/a11y/useMediaCaption: a user's own files come without caption tracks
        <video className="fb-media" controls preload="metadata" src={urlOf(shown)} data-testid="fb-preview-video" />
      );
      break;
    case 'audio':
      body = (
        // biome-ignore lint/a11y/useMediaCaption: a user's own files come without caption tracks
        <audio className="fb-audio" controls preload="metadata" src={urlOf(shown)} data-testid="fb-preview-audio" />
      );
      break;
    case 'pdf':
      body = <iframe className="fb-pdf" title={shown.name} src={urlOf(shown)} data-testid="fb-preview-pdf" />;
      break;
    case 'text':
      body = (
        <TextPreview
          key={shown.name}
          storage={storage}
          dir={dir}
          entry={shown}
          downloadButton={download}
          onSaved={onSaved}
          onDirty={onDirty}
        />
      );
      break;
    default:
      body = (
        <div className="fb-preview-other" data-testid="fb-preview-other">
          <Typography.Paragraph>{t('filebrowser.preview_noPreview')}</Typography.Paragraph>
          {download}
        </div>
      );
  }

  return (
    <Modal
      open
      onCancel={close}
      footer={null}
      width={layout.width}
      style={layout.style}
      className={`fb-preview ${layout.className}`}
      title={<span className="fb-preview-title">{shown.name}</span>}
      keyboard
      maskClosable={false}
      destroyOnHidden
      data-testid="fb-preview"
    >
      {shown.type !== 'text' && shown.type !== 'other' && <div className="fb-preview-actions">{download}</div>}
      {body}
    </Modal>
  );
}

// The image preview: one image at a time, previous / next through the images of the folder
// (buttons and the arrow keys), shown fitted to the window or at 100 % (then scrolled).
import { CompressOutlined, ExpandOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { FilebrowserEntry } from '@lucky/shared';
import { Button, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ImageGalleryProps {
  /** The images of the folder, in the listing's order. */
  images: FilebrowserEntry[];
  /** Which of them is shown. */
  at: number;
  onMove: (at: number) => void;
  urlOf: (entry: FilebrowserEntry) => string;
}

/** Keys typed into a field are the field's, not the gallery's. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function ImageGallery({ images, at, onMove, urlOf }: ImageGalleryProps) {
  const { t } = useTranslation();
  const [actualSize, setActualSize] = useState(false);
  const entry = images[at];
  const hasPrev = at > 0;
  const hasNext = at < images.length - 1;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowLeft' && hasPrev) onMove(at - 1);
      else if (e.key === 'ArrowRight' && hasNext) onMove(at + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [at, hasPrev, hasNext, onMove]);

  return (
    <div className="fb-gallery" data-testid="fb-gallery">
      <Space className="fb-gallery-bar" wrap>
        <Button
          icon={<LeftOutlined />}
          disabled={!hasPrev}
          onClick={() => onMove(at - 1)}
          data-testid="fb-gallery-prev"
        >
          {t('filebrowser.preview_prev')}
        </Button>
        <Typography.Text type="secondary" data-testid="fb-gallery-position">
          {t('filebrowser.preview_position', { at: at + 1, total: images.length })}
        </Typography.Text>
        <Button
          icon={<RightOutlined />}
          iconPlacement="end"
          disabled={!hasNext}
          onClick={() => onMove(at + 1)}
          data-testid="fb-gallery-next"
        >
          {t('filebrowser.preview_next')}
        </Button>
        <Button
          icon={actualSize ? <CompressOutlined /> : <ExpandOutlined />}
          onClick={() => setActualSize((v) => !v)}
          aria-pressed={actualSize}
          data-testid="fb-gallery-zoom"
        >
          {actualSize ? t('filebrowser.preview_zoomFit') : t('filebrowser.preview_zoomActual')}
        </Button>
      </Space>
      <div className={actualSize ? 'fb-gallery-stage fb-gallery-actual' : 'fb-gallery-stage'}>
        <img src={urlOf(entry)} alt={entry.name} data-testid="fb-gallery-image" />
      </div>
    </div>
  );
}

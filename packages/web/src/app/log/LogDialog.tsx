// The program log dialog (spec §2, §4): opened from the menu, draggable by its
// title bar, closed by an outside click or the close button.
import { Modal, Spin } from 'antd';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDragOffset } from '../../hooks/useDragOffset';
import { useWindowSize } from '../../hooks/useWindowSize';
import { LOG_AREA_MAX_HEIGHT, logDialogSize } from './logDialogSize';
import { useLogPolling } from './useLogPolling';
import './logDialog.css';

export interface LogDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Distance from the bottom under which the view still follows new lines. */
const STICK_THRESHOLD_PX = 24;

export default function LogDialog({ open, onClose }: LogDialogProps) {
  const { t } = useTranslation();
  const { width, height } = useWindowSize();
  const size = logDialogSize(width, height);
  const { buffer, loaded } = useLogPolling(open);
  const drag = useDragOffset(!size.fullScreen);
  const textRef = useRef<HTMLPreElement>(null);
  // Follow the tail unless the user scrolled up to read.
  const stickToBottom = useRef(true);

  useEffect(() => {
    if (open) stickToBottom.current = true;
  }, [open]);

  // Runs after every new batch of lines (and on open).
  useLayoutEffect(() => {
    const el = textRef.current;
    if (!open || !el || buffer.lines.length === 0 || !stickToBottom.current) return;
    el.scrollTop = el.scrollHeight;
  }, [buffer.lines, open]);

  const onScroll = () => {
    const el = textRef.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD_PX;
  };

  const offset = size.fullScreen ? { x: 0, y: 0 } : drag.offset;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      afterClose={drag.reset}
      footer={null}
      mask={{ closable: true }}
      width={size.fullScreen ? '100vw' : size.width}
      className={size.fullScreen ? 'log-dialog log-dialog-full' : 'log-dialog'}
      style={size.fullScreen ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : { top: 60 }}
      // The whole dialog box (title included) is the spec's size; the body takes what is left.
      styles={
        size.fullScreen
          ? undefined
          : {
              container: { height: size.height, display: 'flex', flexDirection: 'column' },
              body: { flex: '1 1 auto', minHeight: 0 },
            }
      }
      title={
        <div className="log-dialog-title" onPointerDown={drag.onPointerDown} data-testid="log-dialog-title">
          {t('logs.title')}
        </div>
      }
      modalRender={(node) => (
        <div
          data-testid="log-dialog"
          data-drag-frame=""
          style={{ transform: `translate(${offset.x}px, ${offset.y}px)` }}
        >
          {node}
        </div>
      )}
    >
      <div className="log-dialog-body">
        {!loaded && (
          <div className="log-dialog-loading" data-testid="log-loading">
            <Spin description={t('common.loading')}>
              <div style={{ height: 48 }} />
            </Spin>
          </div>
        )}
        <pre
          ref={textRef}
          className="log-dialog-text"
          data-testid="log-text"
          onScroll={onScroll}
          style={{ maxHeight: LOG_AREA_MAX_HEIGHT }}
        >
          {buffer.lines.join('\n')}
        </pre>
      </div>
    </Modal>
  );
}

// Dragging a dialog by its title bar: an offset applied as a CSS transform.
// The dialog always keeps part of its title bar on screen, so it can be
// dragged back.
import { type PointerEvent as ReactPointerEvent, useCallback, useEffect, useRef, useState } from 'react';

export interface DragOffset {
  x: number;
  y: number;
}

/** Pixels of the title bar that must stay inside the window. */
const KEEP_VISIBLE_PX = 60;

export function useDragOffset(enabled: boolean) {
  const [offset, setOffset] = useState<DragOffset>({ x: 0, y: 0 });
  const cleanup = useRef<(() => void) | null>(null);

  useEffect(() => () => cleanup.current?.(), []);

  const onPointerDown = useCallback(
    (e: ReactPointerEvent<HTMLElement>) => {
      if (!enabled || e.button !== 0) return;
      // Buttons inside the title bar (close) keep working.
      if ((e.target as HTMLElement).closest('button')) return;
      const frame = (e.currentTarget as HTMLElement).closest('[data-drag-frame]') as HTMLElement | null;
      const rect = frame?.getBoundingClientRect();
      const start = { px: e.clientX, py: e.clientY, x: offset.x, y: offset.y };
      e.preventDefault();

      const move = (ev: PointerEvent) => {
        let dx = ev.clientX - start.px;
        let dy = ev.clientY - start.py;
        if (rect) {
          dx = Math.min(Math.max(dx, KEEP_VISIBLE_PX - rect.right), window.innerWidth - KEEP_VISIBLE_PX - rect.left);
          dy = Math.min(Math.max(dy, -rect.top), window.innerHeight - KEEP_VISIBLE_PX - rect.top);
        }
        setOffset({ x: start.x + dx, y: start.y + dy });
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        cleanup.current = null;
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
      cleanup.current = up;
    },
    [enabled, offset.x, offset.y],
  );

  const reset = useCallback(() => setOffset({ x: 0, y: 0 }), []);
  return { offset, onPointerDown, reset };
}

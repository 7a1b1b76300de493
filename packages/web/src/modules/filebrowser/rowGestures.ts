// A row's pointer gestures: on a desktop a click selects and a double click opens; on a phone a
// tap opens and a long press (or the checkbox) selects.
import { type MouseEvent, type PointerEvent, useRef } from 'react';
import type { ClickMods } from './listModel';

const LONG_PRESS_MS = 500;

export interface RowHandlers {
  onSelect: (name: string, mods: ClickMods) => void;
  onOpen: (name: string) => void;
}

export function useRowGestures(phone: boolean, h: RowHandlers) {
  const press = useRef<{ timer: number; name: string; fired: boolean } | undefined>(undefined);
  const clear = () => {
    if (press.current) window.clearTimeout(press.current.timer);
  };
  return (name: string) => ({
    onClick: (e: MouseEvent) => {
      // The checkbox column toggles by itself.
      if ((e.target as HTMLElement).closest('.fb-check, .fb-tile-check')) return;
      if (phone) {
        if (press.current?.fired && press.current.name === name) return;
        h.onOpen(name);
        return;
      }
      h.onSelect(name, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
    },
    onDoubleClick: (e: MouseEvent) => {
      if ((e.target as HTMLElement).closest('.fb-check, .fb-tile-check')) return;
      if (!phone) h.onOpen(name);
    },
    onPointerDown: (e: PointerEvent) => {
      if (!phone || e.pointerType === 'mouse') return;
      clear();
      const p = { name, fired: false, timer: 0 };
      p.timer = window.setTimeout(() => {
        p.fired = true;
        h.onSelect(name, { toggle: true, range: false });
      }, LONG_PRESS_MS);
      press.current = p;
    },
    onPointerUp: clear,
    onPointerCancel: clear,
    onPointerLeave: clear,
  });
}

// Form dialogs share one sizing rule (spec §2, §9): on windows up to 768 px wide
// they take the whole window; wider, they keep their own width, never more than
// the window minus a margin.
import { MOBILE_DIALOG_BREAKPOINT_PX } from '@lucky/shared';
import type { CSSProperties } from 'react';
import { useWindowSize } from './useWindowSize';

export interface DialogLayout {
  fullScreen: boolean;
  width: number | string;
  style: CSSProperties;
  /** Add to the dialog's className: `dialog-full` styles the full-window variant. */
  className: string;
}

const SIDE_MARGIN_PX = 48;

export function dialogLayout(windowWidth: number, preferredWidth: number): DialogLayout {
  if (windowWidth <= MOBILE_DIALOG_BREAKPOINT_PX) {
    return {
      fullScreen: true,
      width: '100vw',
      style: { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 },
      className: 'dialog-full',
    };
  }
  return {
    fullScreen: false,
    width: Math.min(preferredWidth, windowWidth - SIDE_MARGIN_PX),
    style: { top: 48 },
    className: '',
  };
}

export function useDialogLayout(preferredWidth: number): DialogLayout {
  const { width } = useWindowSize();
  return dialogLayout(width, preferredWidth);
}

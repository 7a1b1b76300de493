// Spec §2: full size up to 768 px wide; otherwise (window width − 100, at
// most 1300) by (window height − 350). The log area itself is capped at 65vh.
import { DIALOG_MAX_WIDTH_PX, MOBILE_DIALOG_BREAKPOINT_PX } from '@lucky/shared';

export type LogDialogSize = { fullScreen: true } | { fullScreen: false; width: number; height: number };

/** Keeps the dialog usable on very short windows, where height − 350 would leave nothing. */
const MIN_HEIGHT_PX = 200;

export function logDialogSize(windowWidth: number, windowHeight: number): LogDialogSize {
  if (windowWidth <= MOBILE_DIALOG_BREAKPOINT_PX) return { fullScreen: true };
  return {
    fullScreen: false,
    width: Math.min(windowWidth - 100, DIALOG_MAX_WIDTH_PX),
    height: Math.max(windowHeight - 350, MIN_HEIGHT_PX),
  };
}

export const LOG_AREA_MAX_HEIGHT = '65vh';

import { Grid } from 'antd';

/**
 * A phone: narrower than antd's `sm` breakpoint (576 px), where the consoles show as cards
 * instead of a table that scrolls sideways. antd's breakpoints answer from `matchMedia` (also
 * before the first paint: the hook subscribes in a layout effect), so a rotation switches layouts.
 */
export function usePhone(): boolean {
  return Grid.useBreakpoint().xs === true;
}

// Stand-ins for the preview, share, settings and log components another change builds (they
// render nothing until then); the screen imports them by these names and props.
import type { FilebrowserEntry } from '@lucky/shared';

export interface PreviewModalProps {
  storage: string;
  dir: string;
  entries: FilebrowserEntry[];
  index: number;
  ticket: string;
  onClose: () => void;
  onSaved: () => void;
}
export function PreviewModal(_: PreviewModalProps) {
  return null;
}
export function ShareDialog(_: { storage: string; path: string; kind: 'file' | 'dir'; onClose: () => void }) {
  return null;
}
export function SharesPanel() {
  return null;
}
export function SettingsDialog(_: { open: boolean; onClose: () => void }) {
  return null;
}
export function LogDrawer(_: { open: boolean; onClose: () => void }) {
  return null;
}

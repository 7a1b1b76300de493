// Queries inside one antd popup. A role query over the whole page works out the accessible name
// and the visibility (getComputedStyle up the tree) of every candidate there: seconds under jsdom
// next to a table or a form, which is what made such tests time out on a busy machine. Inside the
// popup it sees a handful of elements. Motion is off in tests (render.tsx), so a closed popup is
// hidden at once and exactly one open popup is looked for.
import { waitFor, within } from '@testing-library/react';

function theOne(selector: string, open: (el: HTMLElement) => boolean, what: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>(selector)].filter(open);
    if (found.length !== 1) throw new Error(`${found.length} open ${what} (want 1)`);
    return found[0];
  });
}

/** The open Popconfirm (antd keeps a closed one in the page with `ant-popover-hidden`). */
export async function popconfirm() {
  return within(await theOne('.ant-popconfirm', (el) => !el.classList.contains('ant-popover-hidden'), 'Popconfirm'));
}

/** The open confirmation dialog (`modal.confirm` of antd's App). */
export async function confirmDialog() {
  return within(
    await theOne(
      '.ant-modal-confirm',
      (el) => (el.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display !== 'none',
      'confirmation dialog',
    ),
  );
}

/** The button row of the dialog that holds `inside` (any element of its body). */
export function dialogFooter(inside: HTMLElement) {
  const footer = inside.closest('.ant-modal')?.querySelector<HTMLElement>('.ant-modal-footer');
  if (!footer) throw new Error('not inside a dialog with a footer');
  return within(footer);
}

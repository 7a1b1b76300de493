// The wanji_admin screen on a phone: antd's breakpoints come from matchMedia, which this file
// answers for a window width it chooses (and can change, as a rotation does). Below 576 px the
// consoles are cards with the table row's data and actions; wider, the table.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zh from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { consoleView, FP_NEW, listReply } from './testData';
import WanjiAdminScreen from './WanjiAdminScreen';

let net: FakeFetch;

/**
 * matchMedia for a window `width` px wide: antd asks `(max-width: Npx)` for xs and `(min-width:
 * Npx)` for the others. `resize` changes the width and tells every listener whose answer changed.
 */
function windowOf(initial: number) {
  let width = initial;
  const queries: { query: string; listeners: Set<(e: { matches: boolean }) => void>; last: boolean }[] = [];
  const matches = (query: string) => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    const min = /min-width:\s*(\d+)px/.exec(query);
    return (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
  };
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const q = { query, listeners: new Set<(e: { matches: boolean }) => void>(), last: matches(query) };
    queries.push(q);
    return {
      get matches() {
        return matches(query);
      },
      media: query,
      addEventListener: (_type: string, l: (e: { matches: boolean }) => void) => q.listeners.add(l),
      removeEventListener: (_type: string, l: (e: { matches: boolean }) => void) => q.listeners.delete(l),
    } as unknown as MediaQueryList;
  });
  return {
    resize(next: number) {
      width = next;
      for (const q of queries) {
        const now = matches(q.query);
        if (now === q.last) continue;
        q.last = now;
        for (const l of q.listeners) l({ matches: now });
      }
    },
  };
}

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const calls = (method: string, path: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method,
  );
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));
const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

const up = consoleView();
const down = consoleView({
  key: 'c1',
  name: 'Parents',
  url: 'https://10.0.0.9:16601',
  reachable: false,
  failures: 3,
  reason: { code: 'connectRefused', params: { host: '10.0.0.9', port: 16601 }, text: 'refused' },
  nextCheckAt: new Date(Date.now() + 90_000).toISOString(),
});
const moved = consoleView({
  key: 'd1',
  name: 'Router',
  url: 'https://10.0.0.1:16601',
  reachable: false,
  failures: 1,
  reason: { code: 'fingerprintMismatch', params: { seen: FP_NEW }, text: 'mismatch' },
  seenFingerprint: FP_NEW,
  summary: undefined,
});

describe('wanji_admin screen on a phone', () => {
  it('shows one card per console with what the row shows, and no table', async () => {
    windowOf(390);
    net.route('api/wanji_admin/consoles', { body: listReply([up, down, moved]) });
    renderWithProviders(<WanjiAdminScreen />);

    const card = await screen.findByTestId('wanji-card-b1');
    expect(screen.queryByTestId('wanji-row-b1')).toBeNull();
    expect(document.querySelector('.ant-table')).toBeNull();
    expect(screen.getAllByTestId(/^wanji-card-/).map((e) => e.dataset.testid)).toEqual([
      'wanji-card-b1',
      'wanji-card-c1',
      'wanji-card-d1',
    ]);

    // Name, address, state, version, uptime, load, module tags, certificates: the row's data.
    expect(within(card).getByText('NAS')).toBeTruthy();
    expect(card.textContent).toContain('https://192.168.1.2:16601');
    expect(within(card).getByTestId('wanji-health-b1').getAttribute('data-state')).toBe('ok');
    expect(within(card).getByTestId('wanji-version-b1').textContent).toBe('2.9.1');
    expect(card.textContent).toContain(`1${zh.common.unitDay}`);
    expect(card.textContent).toContain(fill(zh.wanji_admin.ui_cpu, { percent: '12.5%' }));
    const mods = within(card).getByTestId('wanji-modules-b1');
    expect(mods.textContent).toContain(zh.menu.ddns);
    expect(mods.textContent).toContain(`${zh.menu.wol}3`);
    expect(within(card).getByTestId('wanji-modules-rest-b1').textContent).toBe(
      fill(zh.wanji_admin.ui_modulesRest, { idle: 0, off: 1 }),
    );
    expect(card.textContent).toContain(fill(zh.wanji_admin.ui_certDays, { name: 'nas.example', count: 5 }));
    for (const label of ['col_version', 'col_uptime', 'col_load', 'col_modules', 'col_certs'] as const) {
      expect(card.textContent).toContain(zh.wanji_admin[label]);
    }

    // Down: the reason in the UI language and the countdown to the next try.
    const downCard = screen.getByTestId('wanji-card-c1');
    expect(within(downCard).getByTestId('wanji-health-c1').getAttribute('data-state')).toBe('down');
    expect(within(downCard).getByTestId('wanji-reason-c1').textContent).toBe(
      fill(zh.wanji_admin.reason_connectRefused, { host: '10.0.0.9', port: 16601 }),
    );
    expect(within(downCard).getByTestId('wanji-next-c1').textContent).toMatch(/^1分 \d+秒后重试$/);
  });

  it('a card opens to the detail the expanded row shows; a certificate change offers re-pin', async () => {
    windowOf(390);
    net.route('api/wanji_admin/consoles', { body: listReply([up, moved]) });
    renderWithProviders(<WanjiAdminScreen />);
    const card = await screen.findByTestId('wanji-card-b1');

    // The detail, behind the card's toggle.
    expect(screen.queryByTestId('wanji-detail-b1')).toBeNull();
    fireEvent.click(within(card).getByTestId('wanji-detail-toggle-b1'));
    const detail = await within(card).findByTestId('wanji-detail-b1');
    expect(detail.textContent).toContain(zh.wanji_admin.ui_hostname);
    expect(detail.textContent).toContain('nas');
    expect(within(card).getByTestId('wanji-detail-toggle-b1').textContent).toBe(zh.wanji_admin.ui_hideDetail);

    // Never read: one line says so instead of the figures.
    const movedCard = screen.getByTestId('wanji-card-d1');
    expect(within(movedCard).getByTestId('wanji-no-summary-d1').textContent).toBe(zh.wanji_admin.ui_noSummary);
    expect(within(movedCard).queryByTestId('wanji-version-d1')).toBeNull();
    expect(screen.queryByTestId('wanji-no-summary-b1')).toBeNull();
    // Certificate changed: re-pin on the card opens the dialog.
    expect(within(movedCard).getByTestId('wanji-health-d1').getAttribute('data-state')).toBe('mismatch');
    fireEvent.click(within(movedCard).getByTestId('wanji-repin-d1'));
    expect((await screen.findByTestId('wanji-repin-new')).textContent).toBe(FP_NEW);
  });

  it("a card's switch, refresh and open do what the row's do", async () => {
    windowOf(390);
    net.route('api/wanji_admin/consoles', { body: listReply([up, down]) });
    net.route('api/wanji_admin/consoles/c1/enable', { body: { ret: 0, console: { ...down, enabled: false } } });
    net.route('api/wanji_admin/consoles/b1/refresh', { body: { ret: 0, console: up } });
    net.route('api/wanji_admin/consoles/b1/login-link', {
      body: { ret: 0, url: 'https://192.168.1.2:16601/#/login?ticket=T', expiresAt: '' },
    });
    const tab = { opener: window as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    renderWithProviders(<WanjiAdminScreen />);
    await screen.findByTestId('wanji-card-c1');

    fireEvent.click(screen.getByTestId('wanji-switch-c1'));
    await waitFor(() => expect(calls('PUT', 'api/wanji_admin/consoles/c1/enable')).toHaveLength(1));
    expect(bodyOf(calls('PUT', 'api/wanji_admin/consoles/c1/enable')[0])).toEqual({ enabled: false });

    fireEvent.click(screen.getByTestId('wanji-refresh-b1'));
    await waitFor(() => expect(calls('POST', 'api/wanji_admin/consoles/b1/refresh')).toHaveLength(1));

    fireEvent.click(screen.getByTestId('wanji-open-b1'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('https://192.168.1.2:16601/#/login?ticket=T'));
  });

  it('a card\'s edit (under "more") opens the console\'s dialog', async () => {
    windowOf(390);
    net.route('api/wanji_admin/consoles', { body: listReply([up, down]) });
    renderWithProviders(<WanjiAdminScreen />);
    await screen.findByTestId('wanji-card-b1');

    fireEvent.click(screen.getByTestId('wanji-more-b1'));
    fireEvent.click(await screen.findByTestId('wanji-edit-b1'));
    expect(((await screen.findByTestId('wanji-console-name')) as HTMLInputElement).value).toBe('NAS');
  });

  it('a card\'s delete (under "more") asks, then deletes that console', async () => {
    windowOf(390);
    net.route('api/wanji_admin/consoles', { body: listReply([up, down]) });
    net.route('api/wanji_admin/consoles/b1', { body: { ret: 0 } });
    renderWithProviders(<WanjiAdminScreen />);
    await screen.findByTestId('wanji-card-b1');
    fireEvent.click(screen.getByTestId('wanji-more-b1'));
    fireEvent.click(await screen.findByTestId('wanji-delete-b1'));
    const [confirm] = await screen.findAllByText(fill(zh.wanji_admin.ui_deleteConfirm, { name: 'NAS' }));
    const dialog = confirm.closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: zh.wanji_admin.ui_delete }));
    await waitFor(() => expect(calls('DELETE', 'api/wanji_admin/consoles/b1')).toHaveLength(1));
  });

  it('a card\'s box and "select all" feed the bulk bar, whose action goes to the selected consoles', async () => {
    windowOf(390);
    net.route('api/wanji_admin/consoles', { body: listReply([up, down]) });
    net.route('api/wanji_admin/bulk/restart', {
      body: {
        ret: 0,
        results: [
          { key: 'b1', name: 'NAS', ok: true },
          { key: 'c1', name: 'Parents', ok: true },
        ],
      },
    });
    renderWithProviders(<WanjiAdminScreen />);
    await screen.findByTestId('wanji-card-c1');
    expect(screen.queryByTestId('wanji-bulk')).toBeNull();
    fireEvent.click(screen.getByTestId('wanji-select-c1'));
    expect((await screen.findByTestId('wanji-bulk')).textContent).toContain(
      fill(zh.wanji_admin.ui_selected, { count: 1 }),
    );
    expect(screen.getByTestId('wanji-card-c1').className).toContain('wanji-console-card-picked');
    fireEvent.click(screen.getByTestId('wanji-select-all'));
    await waitFor(() =>
      expect(screen.getByTestId('wanji-bulk').textContent).toContain(fill(zh.wanji_admin.ui_selected, { count: 2 })),
    );
    fireEvent.click(screen.getByTestId('wanji-bulk-restart'));
    fireEvent.click(await screen.findByTestId('wanji-bulk-restart-ok'));
    await screen.findByTestId('wanji-result-c1');
    expect(bodyOf(calls('POST', 'api/wanji_admin/bulk/restart')[0])).toEqual({ keys: ['b1', 'c1'] });
  });

  it('follows the window: a table when it widens past 576 px, cards again when it narrows', async () => {
    const win = windowOf(800);
    net.route('api/wanji_admin/consoles', { body: listReply([up]) });
    renderWithProviders(<WanjiAdminScreen />);
    await screen.findByTestId('wanji-row-b1');
    expect(screen.queryByTestId('wanji-cards')).toBeNull();

    act(() => win.resize(575));
    await screen.findByTestId('wanji-card-b1');
    expect(screen.queryByTestId('wanji-row-b1')).toBeNull();

    act(() => win.resize(576));
    await screen.findByTestId('wanji-row-b1');
    expect(screen.queryByTestId('wanji-cards')).toBeNull();
  });
});

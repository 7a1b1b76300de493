// The wanji_admin screen with a scripted server: the table's three kinds of rows, jump-in (the tab
// opened inside the click, navigated when the link comes), and a bulk action's per-console results.
// Few renders: antd under jsdom is slow.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zh from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { consoleView, FP_NEW, FP_OLD, listReply } from './testData';
import WanjiAdminScreen from './WanjiAdminScreen';

let net: FakeFetch;

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
});

describe('wanji_admin screen', () => {
  it('shows reachable, unreachable (reason, next try) and certificate-changed rows; re-pin shows old and new', async () => {
    net.route('api/wanji_admin/consoles', { body: listReply([up, down, moved]) });
    renderWithProviders(<WanjiAdminScreen />);

    const health = await screen.findByTestId('wanji-health-b1');
    expect(health.getAttribute('data-state')).toBe('ok');
    expect(health.textContent).toBe(zh.wanji_admin.ui_health_ok);
    expect(screen.getByTestId('wanji-version-b1').textContent).toBe('2.9.1');
    const mods = screen.getByTestId('wanji-modules-b1');
    expect(mods.textContent).toContain(zh.menu.ddns);
    // The error count on the module's tag; a module that is off has no tag in the row, only a count.
    expect(mods.textContent).toContain(`${zh.menu.wol}3`);
    expect(mods.textContent).not.toContain(zh.menu.cron);
    expect(screen.getByTestId('wanji-modules-rest-b1').textContent).toBe(
      fill(zh.wanji_admin.ui_modulesRest, { idle: 0, off: 1 }),
    );
    expect(screen.getByTestId('wanji-row-b1').textContent).toContain(
      fill(zh.wanji_admin.ui_certDays, { name: 'nas.example', count: 5 }),
    );

    expect(screen.getByTestId('wanji-health-c1').getAttribute('data-state')).toBe('down');
    expect(screen.getByTestId('wanji-reason-c1').textContent).toBe(
      fill(zh.wanji_admin.reason_connectRefused, { host: '10.0.0.9', port: 16601 }),
    );
    expect(screen.getByTestId('wanji-next-c1').textContent).toMatch(/^1分 \d+秒后重试$/);

    expect(screen.getByTestId('wanji-health-d1').getAttribute('data-state')).toBe('mismatch');
    fireEvent.click(screen.getByTestId('wanji-repin-d1'));
    expect((await screen.findByTestId('wanji-repin-new')).textContent).toBe(FP_NEW);
    expect(document.body.textContent).toContain(FP_OLD);
  });

  it('jump-in opens the tab inside the click, before the link is asked for, and navigates it when the link comes', async () => {
    net.route('api/wanji_admin/consoles', { body: listReply([up]) });
    const tab = { opener: window as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    let openedFirst = false;
    net.route('api/wanji_admin/consoles/b1/login-link', () => {
      openedFirst = open.mock.calls.length === 1;
      return { body: { ret: 0, url: 'https://192.168.1.2:16601/#/login?ticket=T', expiresAt: '' } };
    });
    renderWithProviders(<WanjiAdminScreen />);
    fireEvent.click(await screen.findByTestId('wanji-open-b1'));
    // Synchronously in the click: a blank tab, its opener cut.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() => expect(tab.location.href).toBe('https://192.168.1.2:16601/#/login?ticket=T'));
    expect(openedFirst).toBe(true);
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('bulk restart of the selected rows lists each console with ok or its reason', async () => {
    net.route('api/wanji_admin/consoles', { body: listReply([up, down]) });
    net.route('api/wanji_admin/bulk/restart', {
      body: {
        ret: 0,
        results: [
          { key: 'b1', name: 'NAS', ok: true },
          { key: 'c1', name: 'Parents', ok: false, code: 'timeout', params: { ms: 5000 }, text: 'no answer' },
        ],
      },
    });
    renderWithProviders(<WanjiAdminScreen />);
    await screen.findByTestId('wanji-row-b1');
    // The header's box selects every row (one render instead of one per row).
    fireEvent.click(document.querySelector('thead input[type=checkbox]') as HTMLInputElement);
    fireEvent.click(await screen.findByTestId('wanji-bulk-restart'));
    fireEvent.click(await screen.findByTestId('wanji-bulk-restart-ok'));
    const ok = await screen.findByTestId('wanji-result-b1');
    expect(ok.getAttribute('data-ok')).toBe('true');
    const failed = screen.getByTestId('wanji-result-c1');
    expect(failed.getAttribute('data-ok')).toBe('false');
    expect(failed.textContent).toContain(fill(zh.wanji_admin.reason_timeout, { ms: 5000 }));
    expect(screen.getByTestId('wanji-results-count').textContent).toBe(
      fill(zh.wanji_admin.dialog_resultsCount, { ok: 1, failed: 1 }),
    );
    expect(bodyOf(calls('POST', 'api/wanji_admin/bulk/restart')[0])).toEqual({ keys: ['b1', 'c1'] });
  });
});

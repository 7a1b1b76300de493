import type { SafeBanView, SafeResponse } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { BansTab } from './BansTab';
import { KnockTab } from './KnockTab';

const tx = (key: string, vars?: Record<string, unknown>) => i18next.t(key, vars);

let net: FakeFetch;
let state: SafeResponse;
let bans: SafeBanView[];
let writes: { method: string; path: string; body: unknown }[];

const record = (path: string, init: RequestInit) =>
  writes.push({ method: init.method ?? 'GET', path, body: init.body ? JSON.parse(String(init.body)) : undefined });

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  writes = [];
  bans = [];
  state = {
    ret: 0,
    you: '192.168.1.50',
    settings: {
      allowMode: 'outsideLan',
      exempt: [],
      knock: { enabled: false, path: '', hours: 36, hasPassword: false },
      autoBan: { enabled: true, failures: 10, windowMinutes: 10, banMinutes: 60, banLan: false },
    },
    allow: [],
    block: [],
  };
  net.route('api/safe', () => ({ body: state }));
  net.route('api/safe/bans', (_url, init) => {
    if ((init.method ?? 'GET') === 'GET') return { body: { ret: 0, bans } };
    record('api/safe/bans', init);
    bans = [];
    return { body: { ret: 0 } };
  });
  net.route('api/safe/settings', (_url, init) => {
    record('api/safe/settings', init);
    const patch = JSON.parse(String(init.body));
    if (patch.knock) {
      const { password, ...rest } = patch.knock;
      state = {
        ...state,
        settings: {
          ...state.settings,
          knock: {
            ...state.settings.knock,
            ...rest,
            hasPassword: password ? true : password === '' ? false : state.settings.knock.hasPassword,
          },
        },
      };
    }
    return { body: { ret: 0 } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('knock tab', () => {
  it('switching on draws a secret path and shows the URL on this origin; a short password is refused here', async () => {
    const user = userEvent.setup();
    renderWithProviders(<KnockTab />);
    await screen.findByTestId('safe-knock-no-url');
    fireEvent.click(screen.getByTestId('safe-knock-enabled'));
    await user.type(screen.getByTestId('safe-knock-password'), 'abc');
    fireEvent.click(screen.getByTestId('safe-knock-save'));
    expect(await screen.findByText(tx('safe.err_knockPasswordTooShort', { min: 6 }))).toBeTruthy();
    expect(writes).toEqual([]);

    await user.type(screen.getByTestId('safe-knock-password'), 'defgh');
    fireEvent.click(screen.getByTestId('safe-knock-save'));
    const url = await screen.findByTestId('safe-knock-url');
    expect(writes).toHaveLength(1);
    const sent = writes[0].body as { knock: { enabled: boolean; path: string; password: string; hours: number } };
    expect(sent.knock).toMatchObject({ enabled: true, password: 'abcdefgh', hours: 36 });
    expect(sent.knock.path).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(url.textContent).toBe(`${window.location.origin}/knock/${sent.knock.path}`);
    // The password is never shown, only that one is set; the box is empty again.
    expect(await screen.findByTestId('safe-knock-has-password')).toBeTruthy();
    await waitFor(() => expect((screen.getByTestId('safe-knock-password') as HTMLInputElement).value).toBe(''));
  });
});

describe('bans tab', () => {
  it('lists the bans with their sources by module name and unbans one', async () => {
    bans = [
      {
        ip: '203.0.113.7',
        since: '2026-11-26T10:00:00.000Z',
        until: '2026-11-26T11:00:00.000Z',
        failures: 12,
        sources: ['webdav', 'admin'],
      },
    ];
    renderWithProviders(<BansTab />);
    const row = await screen.findByTestId('safe-ban-row-203.0.113.7');
    expect(row.textContent).toContain(tx('menu.webdav'));
    expect(row.textContent).toContain(tx('safe.lists_scopeAdmin'));
    expect(row.textContent).toContain('12');
    // LAN addresses are never banned unless asked: off, with why.
    const card = screen.getByTestId('safe-autoban-card');
    expect(within(card).getByTestId('safe-ban-lan').getAttribute('aria-checked')).toBe('false');
    expect(within(card).getByText(tx('safe.bans_banLanHelp'))).toBeTruthy();

    net.route('api/safe/bans/203.0.113.7', (_url, init) => {
      record('api/safe/bans/203.0.113.7', init);
      bans = [];
      return { body: { ret: 0 } };
    });
    fireEvent.click(within(row).getByTestId('safe-unban-203.0.113.7'));
    await screen.findByTestId('safe-bans-empty');
    expect(writes).toEqual([{ method: 'DELETE', path: 'api/safe/bans/203.0.113.7', body: undefined }]);
  });
});

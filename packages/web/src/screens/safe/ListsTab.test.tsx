import type { SafeEntry, SafeResponse } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { popconfirm } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { EntryTable } from './EntryTable';
import { ListsTab } from './ListsTab';

const tx = (key: string, vars?: Record<string, unknown>) => i18next.t(key, vars);

let net: FakeFetch;
let state: SafeResponse;
/** Writes the screen made: method, path and body. */
let writes: { method: string; path: string; body: unknown }[];

const entry = (key: string, value: string, extra: Partial<SafeEntry> = {}): SafeEntry => ({
  key,
  value,
  comment: '',
  expiresAt: null,
  source: 'manual',
  addedAt: '2026-11-20T08:00:00.000Z',
  ...extra,
});

const YOU = '192.168.1.50';
const lockOut = (field: string) => ({
  status: 400,
  body: {
    ret: 1,
    code: 'wouldLockOut',
    field,
    params: { ip: YOU, rule: 'block' },
    msg: `${field}: this would refuse your own address ${YOU} (block) on the admin console`,
  },
});

function record(path: string, init: RequestInit) {
  writes.push({ method: init.method ?? 'GET', path, body: init.body ? JSON.parse(String(init.body)) : undefined });
}

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  writes = [];
  state = {
    ret: 0,
    you: YOU,
    settings: {
      allowMode: 'off',
      exempt: [],
      knock: { enabled: false, path: '', hours: 36, hasPassword: false },
      autoBan: { enabled: true, failures: 10, windowMinutes: 10, banMinutes: 60, banLan: false },
    },
    allow: [entry('a1', '198.51.100.0/24', { comment: 'office' }), entry('a2', '203.0.113.9', { source: 'knock' })],
    block: [entry('b1', '192.0.2.66', { expiresAt: '2030-01-01T00:00:00.000Z' })],
  };
  net.route('api/safe', () => ({ body: state }));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The block list's table alone (the dialog's tests need no more of the tab). */
const blockTable = () =>
  renderWithProviders(
    <EntryTable
      list="block"
      entries={state.block}
      loading={false}
      onChanged={() => {}}
      onLockOut={() => {}}
      onError={() => {}}
    />,
  );

async function openAddBlock() {
  blockTable();
  await screen.findByTestId('safe-block-card');
  fireEvent.click(screen.getByTestId('safe-block-add'));
  return screen.findByTestId('safe-entry-form');
}

describe('IP lists tab', () => {
  it('lists both lists with source and expiry, shows the caller and filters', async () => {
    renderWithProviders(<ListsTab />);
    expect((await screen.findByTestId('safe-you')).textContent).toBe(YOU);
    const allow = screen.getByTestId('safe-allow-card');
    expect(within(allow).getByTestId('safe-allow-row-198.51.100.0/24').textContent).toContain('office');
    expect(within(allow).getByTestId('safe-allow-row-203.0.113.9').textContent).toContain(
      tx('safe.lists_source_knock'),
    );
    expect(within(allow).getByTestId('safe-allow-row-198.51.100.0/24').textContent).toContain(tx('safe.lists_never'));
    const block = screen.getByTestId('safe-block-row-192.0.2.66');
    // The expiry in the display zone's format, not the raw ISO string.
    expect(block.textContent).not.toContain('2030-01-01T');
    expect(block.textContent).toMatch(/20(29-12-31|30-01-01) \d\d:\d\d:\d\d/);

    fireEvent.change(
      screen.getByTestId('safe-allow-filter').querySelector('input') ?? screen.getByTestId('safe-allow-filter'),
      {
        target: { value: 'offi' },
      },
    );
    await waitFor(() => expect(screen.queryByTestId('safe-allow-row-203.0.113.9')).toBeNull());
    expect(screen.getByTestId('safe-allow-row-198.51.100.0/24')).toBeTruthy();
  });

  it('checks the value with the shared rule before anything is sent', async () => {
    const form = await openAddBlock();
    const value = within(form).getByTestId('safe-entry-value');
    fireEvent.change(value, { target: { value: '10.0.0.1-::1' } });
    fireEvent.click(screen.getByTestId('safe-entry-save'));
    expect(await within(form).findByText(tx('safe.err_rangeMixed', { value: '10.0.0.1-::1' }))).toBeTruthy();
    fireEvent.change(value, { target: { value: '10.0.0.300' } });
    fireEvent.click(screen.getByTestId('safe-entry-save'));
    expect(await within(form).findByText(tx('safe.err_entryInvalid', { value: '10.0.0.300' }))).toBeTruthy();
    expect(writes).toEqual([]);
    expect(net.fn.mock.calls.every(([, init]) => ((init as RequestInit)?.method ?? 'GET') === 'GET')).toBe(true);
  });

  it("sends a good entry and shows the lock-out refusal with the caller's address in the dialog", async () => {
    net.route('api/safe/lists/block', (_url, init) => {
      record('api/safe/lists/block', init);
      return lockOut('value');
    });
    const form = await openAddBlock();
    fireEvent.change(within(form).getByTestId('safe-entry-value'), { target: { value: '192.168.1.0/24' } });
    fireEvent.change(within(form).getByTestId('safe-entry-comment'), { target: { value: 'home' } });
    fireEvent.click(screen.getByTestId('safe-entry-save'));
    const alert = await within(form).findByTestId('safe-lockout');
    expect(writes).toEqual([
      {
        method: 'POST',
        path: 'api/safe/lists/block',
        body: { value: '192.168.1.0/24', comment: 'home', expiresAt: null },
      },
    ]);
    // The address and the rule in words, not the code.
    expect(alert.textContent).toContain(tx('safe.err_wouldLockOut', { ip: YOU, rule: tx('safe.test_rule_block') }));
    expect(alert.textContent).not.toContain('(block)');
    // The dialog stays open with what was typed.
    expect((within(form).getByTestId('safe-entry-value') as HTMLInputElement).value).toBe('192.168.1.0/24');
  });

  it('shows the lock-out refusal of the allow mode in its card and keeps the choice', async () => {
    net.route('api/safe/settings', (_url, init) => {
      record('api/safe/settings', init);
      return {
        ...lockOut('allowMode'),
        body: { ...lockOut('allowMode').body, params: { ip: YOU, rule: 'notAllowed' } },
      };
    });
    renderWithProviders(<ListsTab />);
    const card = await screen.findByTestId('safe-mode-card');
    fireEvent.click(within(card).getByText(tx('safe.lists_mode_all')));
    // "Everyone" warns before anything is saved.
    expect(await within(card).findByTestId('safe-mode-all-warning')).toBeTruthy();
    fireEvent.click(within(card).getByTestId('safe-mode-save'));
    const alert = await within(card).findByTestId('safe-lockout');
    expect(alert.textContent).toContain(YOU);
    expect(alert.textContent).toContain(tx('safe.test_rule_notAllowed'));
    expect(writes).toEqual([{ method: 'PUT', path: 'api/safe/settings', body: { allowMode: 'all', exempt: [] } }]);
  });

  it('puts the test answer in words with the entry that decided', async () => {
    net.route('api/safe/test', (_url, init) => {
      record('api/safe/test', init);
      return { body: { ret: 0, allowed: false, rule: 'block', entry: state.block[0] } };
    });
    renderWithProviders(<ListsTab />);
    const card = await screen.findByTestId('safe-test-card');
    const ip = within(card).getByTestId('safe-test-ip');
    // The caller's own address is the first guess.
    expect((ip as HTMLInputElement).value).toBe(YOU);
    fireEvent.change(ip, { target: { value: 'nope' } });
    fireEvent.click(within(card).getByTestId('safe-test-run'));
    expect(await within(card).findByText(tx('safe.err_ipInvalid'))).toBeTruthy();
    expect(writes).toEqual([]);
    fireEvent.change(ip, { target: { value: '192.0.2.66' } });
    fireEvent.click(within(card).getByTestId('safe-test-run'));
    const result = await within(card).findByTestId('safe-test-result');
    expect(writes).toEqual([{ method: 'POST', path: 'api/safe/test', body: { ip: '192.0.2.66', scope: 'admin' } }]);
    expect(result.textContent).toContain(
      tx('safe.test_refused', {
        ip: '192.0.2.66',
        scope: tx('safe.lists_scopeAdmin'),
        rule: tx('safe.test_rule_block'),
      }),
    );
    expect(result.textContent).toContain(tx('safe.test_why_block', { value: '192.0.2.66' }));
  });

  it('edits an entry with its expiry kept as it was, through PUT', async () => {
    net.route('api/safe/lists/block/b1', (_url, init) => {
      record('api/safe/lists/block/b1', init);
      return { body: { ret: 0 } };
    });
    blockTable();
    fireEvent.click(await screen.findByTestId('safe-block-edit-192.0.2.66'));
    const form = await screen.findByTestId('safe-entry-form');
    expect((within(form).getByTestId('safe-entry-value') as HTMLInputElement).value).toBe('192.0.2.66');
    fireEvent.change(within(form).getByTestId('safe-entry-comment'), { target: { value: 'bot' } });
    fireEvent.click(screen.getByTestId('safe-entry-save'));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'PUT',
          path: 'api/safe/lists/block/b1',
          body: { value: '192.0.2.66', comment: 'bot', expiresAt: '2030-01-01T00:00:00.000Z' },
        },
      ]),
    );
  });

  it('a delete refused as a lock-out stands above the lists, naming the address', async () => {
    net.route('api/safe/lists/allow/a1', (_url, init) => {
      record('api/safe/lists/allow/a1', init);
      return { ...lockOut('key'), body: { ...lockOut('key').body, params: { ip: YOU, rule: 'notAllowed' } } };
    });
    renderWithProviders(<ListsTab />);
    fireEvent.click(await screen.findByTestId('safe-allow-delete-198.51.100.0/24'));
    fireEvent.click((await popconfirm()).getByRole('button', { name: tx('common.confirm') }));
    const alert = await screen.findByTestId('safe-lockout');
    expect(alert.textContent).toContain(
      tx('safe.err_wouldLockOut', { ip: YOU, rule: tx('safe.test_rule_notAllowed') }),
    );
    expect(writes).toEqual([{ method: 'DELETE', path: 'api/safe/lists/allow/a1', body: undefined }]);
  });
});

import { filebrowserSettingsSchema } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { popconfirm } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { LogDrawer } from './LogDrawer';
import { SettingsDialog } from './SettingsDialog';

let net: FakeFetch;
// No pause between typed keys: the tests wait on the page, not on time.
const user = userEvent.setup({ delay: null });
const settings = filebrowserSettingsSchema.parse({});

const calls = (path: string, method: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && ((init as RequestInit).method ?? 'GET') === method,
  ) as [string, RequestInit][];

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 'tok');
});
afterEach(() => vi.unstubAllGlobals());

describe('SettingsDialog', () => {
  it('shows the settings and sends only what changed (never the module switch)', async () => {
    net.route('api/filebrowser/settings', (_url, init) =>
      init.method === 'PUT'
        ? { body: { ret: 0, settings: { ...settings, ...JSON.parse(String(init.body)) } } }
        : { body: { ret: 0, settings } },
    );
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open onClose={onClose} />);
    const trash = await screen.findByTestId('fb-settings-trash');
    expect(trash.getAttribute('aria-checked')).toBe('false');
    expect((screen.getByTestId('fb-settings-cache') as HTMLInputElement).value).toBe('256');
    await user.click(trash);
    const hours = screen.getByTestId('fb-settings-upload-expiry');
    await user.clear(hours);
    await user.type(hours, '48');
    await user.click(screen.getByTestId('fb-settings-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    const puts = calls('api/filebrowser/settings', 'PUT').map(([, init]) => JSON.parse(String(init.body)));
    expect(puts).toEqual([{ trash: true, uploadExpiryHours: 48 }]);
  });

  it('a value out of range is refused beside its field; a server refusal too', async () => {
    net.route('api/filebrowser/settings', (_url, init) =>
      init.method === 'PUT'
        ? {
            status: 400,
            body: { ret: 1, code: 'tooBig', field: 'sharePasswordLockMinutes', params: { max: 1440 }, msg: 'x' },
          }
        : { body: { ret: 0, settings } },
    );
    renderWithProviders(<SettingsDialog open onClose={vi.fn()} />);
    const workers = await screen.findByTestId('fb-settings-workers');
    await user.clear(workers);
    await user.type(workers, '9');
    await user.click(screen.getByTestId('fb-settings-save'));
    const item = (await screen.findByText('取值范围 1-8')).closest('.ant-form-item') as HTMLElement;
    expect(within(item).getByTestId('fb-settings-workers')).toBeTruthy();
    expect(calls('api/filebrowser/settings', 'PUT')).toEqual([]);

    await user.clear(workers);
    await user.type(workers, '2');
    await user.click(screen.getByTestId('fb-settings-save'));
    const refused = (await screen.findByText('不能大于 1440')).closest('.ant-form-item') as HTMLElement;
    expect(within(refused).getByTestId('fb-settings-lock')).toBeTruthy();
  });
});

describe('LogDrawer', () => {
  it('shows the module’s coded lines in the UI language and clears the log', async () => {
    let cleared = false;
    net.route('api/filebrowser/logs', (_url, init) => {
      if (init.method === 'DELETE') {
        cleared = true;
        return { body: { ret: 0 } };
      }
      const logs = cleared
        ? []
        : [
            {
              seq: 1,
              time: new Date().toISOString(),
              level: 'info',
              code: 'saved',
              params: { storage: 'Disk', path: '/a.txt', bytes: 12 },
              text: 'saved Disk:/a.txt (12 bytes)',
            },
          ];
      return { body: { ret: 0, total: logs.length, page: 1, pageSize: 50, order: 'newest', logs } };
    });
    renderWithProviders(<LogDrawer open onClose={vi.fn()} />);
    const table = await screen.findByTestId('fb-log-table');
    await waitFor(() => expect(table.textContent).toContain('/a.txt'));
    // The Chinese line, not the server's English.
    expect(table.textContent).toContain('已保存 Disk:/a.txt');
    await user.click(screen.getByTestId('fb-logs-clear'));
    await user.click((await popconfirm()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(cleared).toBe(true));
    await waitFor(() => expect(table.textContent).not.toContain('/a.txt'));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { popconfirm } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { LogDrawer } from './LogDrawer';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const LOG = 'api/portforward/rules/KEY/logs';

function entries(page: number, pageSize: number, total: number) {
  const first = total - (page - 1) * pageSize;
  return Array.from({ length: Math.max(0, Math.min(pageSize, first)) }, (_, i) => ({
    seq: first - i,
    time: '2024-05-01T10:00:00.000Z',
    level: ((first - i) % 5) + 2,
    text: `line ${first - i}`,
  }));
}

describe('log drawer', () => {
  it('pages newest first, shows levels as tags, and clears the log', async () => {
    let total = 120;
    net.route(LOG, (url, init) => {
      if (init.method === 'DELETE') {
        total = 0;
        return { body: { ret: 0 } };
      }
      const q = new URLSearchParams(url.split('?')[1]);
      const page = Number(q.get('page'));
      const pageSize = Number(q.get('pageSize'));
      return { body: { ret: 0, total, page, pageSize, order: 'newest', logs: entries(page, pageSize, total) } };
    });
    const onClear = vi.fn(async () => {
      await fetch(`${LOG}?_=1`, { method: 'DELETE' });
      return true;
    });
    renderWithProviders(
      <LogDrawer rule={{ key: 'KEY', name: 'NAS' }} intervalMs={60_000} onClose={() => {}} onClear={onClear} />,
    );
    expect(await screen.findByText('日志 · NAS')).toBeTruthy();
    const table = await screen.findByTestId('pf-log-table');
    expect(await within(table).findByText('line 120')).toBeTruthy();
    expect(within(table).queryByText('line 70')).toBeNull();
    const first = new URLSearchParams(String(net.call(0).url).split('?')[1]);
    expect(Object.fromEntries(first)).toMatchObject({ page: '1', pageSize: '50', order: 'newest' });
    // Level 2 (line 120: 120 % 5 + 2 = 2) is Error.
    expect(within(table).getAllByText('错误').length).toBeGreaterThan(0);
    expect(screen.getByText('共 120 条')).toBeTruthy();

    await userEvent.click(screen.getByTitle('2'));
    expect(await within(table).findByText('line 70')).toBeTruthy();

    await userEvent.click(screen.getByTestId('pf-logs-clear'));
    await userEvent.click((await popconfirm()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onClear).toHaveBeenCalledWith('KEY'));
    expect(await within(table).findByText('暂无日志')).toBeTruthy();
  });
});

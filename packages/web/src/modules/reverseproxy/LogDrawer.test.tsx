import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
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

const LOG = 'api/reverseproxy/rules/KEY/logs';

function entries(site: string, page: number, pageSize: number, total: number) {
  const first = total - (page - 1) * pageSize;
  return Array.from({ length: Math.max(0, Math.min(pageSize, first)) }, (_, i) => ({
    seq: first - i,
    time: '2024-05-01T10:00:00.000Z',
    level: ((first - i) % 5) + 2,
    text: `${site} line ${first - i}`,
  }));
}

describe('access log drawer', () => {
  it('pages newest first per site, with level tags, and switches sites', async () => {
    net.route(LOG, (url) => {
      const q = new URLSearchParams(url.split('?')[1]);
      const site = String(q.get('site'));
      const page = Number(q.get('page'));
      const pageSize = Number(q.get('pageSize'));
      const total = site === 'default' ? 120 : 3;
      return { body: { ret: 0, total, page, pageSize, logs: entries(site, page, pageSize, total) } };
    });
    renderWithProviders(
      <LogDrawer
        target={{
          key: 'KEY',
          name: 'Home',
          site: 'default',
          sites: [
            { key: 'default', label: '默认规则' },
            { key: 'SUB', label: 'NAS' },
          ],
        }}
        intervalMs={60_000}
        onClose={() => {}}
      />,
    );
    expect(await screen.findByText('日志 · Home')).toBeTruthy();
    const table = await screen.findByTestId('rp-log-table');
    expect(await within(table).findByText('default line 120')).toBeTruthy();
    expect(within(table).queryByText('default line 70')).toBeNull();
    const first = new URLSearchParams(String(net.call(0).url).split('?')[1]);
    expect(Object.fromEntries(first)).toMatchObject({ site: 'default', page: '1', pageSize: '50', order: 'newest' });
    expect(within(table).getAllByText('错误').length).toBeGreaterThan(0);
    expect(screen.getByText('共 120 条')).toBeTruthy();
    await userEvent.click(screen.getByTitle('2'));
    expect(await within(table).findByText('default line 70')).toBeTruthy();

    await userEvent.click(within(screen.getByTestId('rp-log-site')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('NAS'));
    expect(await within(table).findByText('SUB line 3')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('共 3 条')).toBeTruthy());
  });

  it('shows coded lines in the UI language, the access line as written', async () => {
    net.route(LOG, {
      body: {
        ret: 0,
        total: 2,
        page: 1,
        pageSize: 50,
        logs: [
          {
            seq: 2,
            time: '2024-05-01T10:00:01.000Z',
            level: 2,
            code: 'backendUnreachable',
            params: { origin: 'http://10.0.0.2:80', errno: 'ECONNREFUSED', seconds: 10 },
            text: 'back end http://10.0.0.2:80 unreachable (ECONNREFUSED): the others go first for 10 s',
          },
          { seq: 1, time: '2024-05-01T10:00:00.000Z', level: 4, text: '[10.0.0.9][10.0.0.9] GET http://x/ 200 1ms ""' },
        ],
      },
    });
    renderWithProviders(
      <LogDrawer
        target={{ key: 'KEY', name: 'Home', site: 'default', sites: [{ key: 'default', label: '默认规则' }] }}
        intervalMs={60_000}
        onClose={() => {}}
      />,
    );
    const table = await screen.findByTestId('rp-log-table');
    expect(
      await within(table).findByText('后端 http://10.0.0.2:80 无法连接（ECONNREFUSED）：10 秒内优先使用其他后端'),
    ).toBeTruthy();
    expect(within(table).queryByText(/the others go first/)).toBeNull();
    expect(within(table).getByText('[10.0.0.9][10.0.0.9] GET http://x/ 200 1ms ""')).toBeTruthy();
  });
});

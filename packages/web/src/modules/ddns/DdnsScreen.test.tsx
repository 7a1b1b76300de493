import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import DdnsScreen from './DdnsScreen';
import { domain, KEY, listReply, taskView } from './testData';

let net: FakeFetch;

const callsTo = (method: string, path: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && ((init as RequestInit)?.method ?? 'GET') === method,
  );

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('task list', () => {
  it('shows each domain with its sync status, time and translated reason', async () => {
    const task = taskView(
      { domains: ['nas.example.com', 'www.example.com'] },
      {
        domains: [
          domain(),
          domain({
            line: 'www.example.com',
            fqdn: 'www.example.com',
            status: 'failed',
            code: 'providerError',
            msg: 'HTTP 403: 9109 Invalid access token',
          }),
        ],
      },
    );
    net.route('api/ddns/tasks', { body: listReply([task]) });
    renderWithProviders(<DdnsScreen />);
    const card = await screen.findByTestId(`ddns-task-${KEY}`);
    expect(within(card).getByText('NAS')).toBeTruthy();
    expect(within(card).getByText('Cloudflare')).toBeTruthy();
    expect(within(card).getByTestId(`ddns-task-ip-${KEY}`).textContent).toBe('203.0.113.10');
    expect(within(card).getByTestId(`ddns-domain-status-${KEY}-nas.example.com`).textContent).toBe('更新成功');
    expect(within(card).getByText('已创建记录 · A 203.0.113.10')).toBeTruthy();
    expect(within(card).getByTestId(`ddns-domain-status-${KEY}-www.example.com`).textContent).toBe('更新失败');
    expect(within(card).getByText('DNS 服务商拒绝了修改: HTTP 403: 9109 Invalid access token')).toBeTruthy();
    expect(screen.queryByTestId('ddns-service-disabled')).toBeNull();
  });

  it('says when the service is off, and "sync now" waits for it', async () => {
    net.route('api/ddns/tasks', {
      body: listReply([taskView({}, { domains: [domain({ status: 'stopped', msg: '' })] })], false),
    });
    net.route('api/ddns/settings', { body: { ret: 0, settings: {} } });
    renderWithProviders(<DdnsScreen />);
    expect(await screen.findByText('动态域名服务未开启')).toBeTruthy();
    expect((screen.getByTestId(`ddns-task-sync-${KEY}`) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByTestId('ddns-service-enable'));
    await waitFor(() => expect(callsTo('PUT', 'api/ddns/settings')).toHaveLength(1));
    expect(JSON.parse(String((callsTo('PUT', 'api/ddns/settings')[0][1] as RequestInit).body))).toEqual({
      enabled: true,
    });
  });

  it('"sync now" asks the server and shows a refusal in the user\'s language', async () => {
    net.route('api/ddns/tasks', { body: listReply([taskView()]) });
    net.route(`api/ddns/tasks/${KEY}/sync`, {
      status: 409,
      body: { ret: 1, msg: 'the task is switched off', code: 'taskDisabled' },
    });
    renderWithProviders(<DdnsScreen />);
    await userEvent.click(await screen.findByTestId(`ddns-task-sync-${KEY}`));
    expect(await screen.findByText('任务未启用')).toBeTruthy();
  });

  it('history shows the IP history', async () => {
    const task = taskView(
      {},
      {
        ipHistory: [
          { ip: '203.0.113.11', time: '2024-05-01T11:00:00.000Z' },
          { ip: '203.0.113.10', time: '2024-05-01T10:00:00.000Z' },
        ],
      },
    );
    net.route('api/ddns/tasks', { body: listReply([task]) });
    net.route(`api/ddns/tasks/${KEY}/logs`, { body: { ret: 0, logs: [] } });
    renderWithProviders(<DdnsScreen />);
    await userEvent.click(await screen.findByTestId(`ddns-task-history-${KEY}`));
    const table = await screen.findByTestId('ddns-ip-history');
    const rows = table.querySelectorAll('tbody tr');
    expect(rows[0].textContent).toContain('203.0.113.11');
    expect(rows[1].textContent).toContain('203.0.113.10');
  });
});

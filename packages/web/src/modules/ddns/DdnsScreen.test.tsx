import { ddnsLogLine, ddnsReason } from '@lucky/shared';
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
            reason: ddnsReason('providerError', { detail: 'HTTP 403: 9109 Invalid access token' }),
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
    expect(within(card).getByText('DNS 服务商拒绝了修改：HTTP 403: 9109 Invalid access token')).toBeTruthy();
    expect(screen.queryByTestId('ddns-service-disabled')).toBeNull();
  });

  it('says when the service is off, and "sync now" waits for it', async () => {
    net.route('api/ddns/tasks', {
      body: listReply([taskView({}, { domains: [domain({ status: 'stopped', reason: undefined })] })], false),
    });
    net.route('api/modules/ddns/enabled', { body: { ret: 0, status: { key: 'ddns', state: 'running' } } });
    renderWithProviders(<DdnsScreen />);
    expect(await screen.findByText('动态域名服务未开启')).toBeTruthy();
    expect((screen.getByTestId(`ddns-task-sync-${KEY}`) as HTMLButtonElement).disabled).toBe(true);
    // The module switch is the core's, the same call for every module.
    await userEvent.click(screen.getByTestId('ddns-service-enable'));
    await waitFor(() => expect(callsTo('PUT', 'api/modules/ddns/enabled')).toHaveLength(1));
    expect(JSON.parse(String((callsTo('PUT', 'api/modules/ddns/enabled')[0][1] as RequestInit).body))).toEqual({
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

  it("an IP error names each failed URL in the user's language", async () => {
    const reason = ddnsReason('allUrlsFailed', {
      cause: [
        ddnsReason('urlHttpStatus', { url: 'http://ip.example/', status: 502 }),
        ddnsReason('urlNoAddress', { url: 'http://b.example/', family: 4 }),
      ],
    });
    net.route('api/ddns/tasks', {
      body: listReply([taskView({}, { ip: '', ipError: reason, domains: [domain({ status: 'paused', reason })] })]),
    });
    renderWithProviders(<DdnsScreen />);
    const text =
      '所有公网 IP 查询接口均失败，请检查接口或网络：http://ip.example/：HTTP 502；http://b.example/：答复中没有 IPv4 地址';
    expect((await screen.findByTestId(`ddns-task-iperror-${KEY}`)).textContent).toBe(text);
    expect(screen.getAllByText(text)).toHaveLength(2);
  });

  it("the task log shows the server's coded lines in Chinese, not its English", async () => {
    const from = ddnsReason('fromUrl', { url: 'https://4.ipw.cn' });
    const lines = [
      ddnsLogLine('recordUpdated', { fqdn: 'nas.example.com', type: 'A', ip: '203.0.113.11' }),
      ddnsLogLine('ipChanged', { ip: '203.0.113.11', from, prev: '203.0.113.10' }),
      ddnsLogLine('updateFailed', {
        fqdn: 'www.example.com',
        cause: ddnsReason('providerError', { detail: 'HTTP 403: 9109 Invalid access token' }),
      }),
    ].map((l, i) => ({ seq: 3 - i, time: '2024-05-01T11:00:00.000Z', level: i === 2 ? 2 : 4, ...l }));
    net.route('api/ddns/tasks', { body: listReply([taskView()]) });
    net.route(`api/ddns/tasks/${KEY}/logs`, { body: { ret: 0, total: 3, logs: lines, page: 1, pageSize: 50 } });
    renderWithProviders(<DdnsScreen />);
    await userEvent.click(await screen.findByTestId(`ddns-task-logs-${KEY}`));
    const table = await screen.findByTestId('ddns-log-table');
    await within(table).findByText('nas.example.com：已更新 A 记录 203.0.113.11');
    expect(within(table).getByText('IP 203.0.113.11（来自https://4.ipw.cn），之前是 203.0.113.10')).toBeTruthy();
    expect(
      within(table).getByText('www.example.com：更新失败：DNS 服务商拒绝了修改：HTTP 403: 9109 Invalid access token'),
    ).toBeTruthy();
    expect(within(table).queryByText(/updated A/)).toBeNull();
    expect(within(table).getAllByText('错误')).toHaveLength(1);
  });
});

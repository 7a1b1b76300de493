import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { SettingsDialog } from './SettingsDialog';
import { listReply } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const settings = {
  enabled: true,
  ruleLimit: 128,
  maxTcpConnections: 1024,
  maxUdpSessions: 1024,
  perIpMaxConnections: 0,
  connectionSpeedLimit: 0,
  connectTimeoutMs: 5000,
};

describe('global settings dialog', () => {
  it('sends only what changed; a refused value lands on its field', async () => {
    const bodies: unknown[] = [];
    net.route('api/portforward/settings', (_url, init) => {
      if (init.method !== 'PUT') return { body: { ret: 0, settings, summary: listReply([]).summary } };
      bodies.push(JSON.parse(String(init.body)));
      return {
        status: 400,
        body: {
          ret: 1,
          msg: 'ruleLimit: too many proxies',
          field: 'ruleLimit',
          code: 'ruleLimitExceeded',
          params: { count: 12, limit: 10 },
        },
      };
    });
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open onClose={onClose} />);
    const label = await screen.findByText('监听数量上限');
    const item = label.closest('.ant-form-item') as HTMLElement;
    const input = within(item).getByRole('spinbutton');
    await userEvent.clear(input);
    await userEvent.type(input, '10');
    const speed = screen.getByLabelText('单连接限速');
    await userEvent.type(speed, '2');
    await userEvent.click(screen.getByTestId('pf-settings-save'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ ruleLimit: 10, connectionSpeedLimit: 2000 });
    expect(await within(item).findByText(/监听数量超过上限：12 \/ 10/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('checks the ranges before sending', async () => {
    net.route('api/portforward/settings', { body: { ret: 0, settings, summary: listReply([]).summary } });
    renderWithProviders(<SettingsDialog open onClose={() => {}} />);
    const label = await screen.findByText('连接目标超时');
    const input = within(label.closest('.ant-form-item') as HTMLElement).getByRole('spinbutton');
    await userEvent.clear(input);
    await userEvent.click(screen.getByTestId('pf-settings-save'));
    expect(await screen.findByText('取值范围 100-60000')).toBeTruthy();
    expect(net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'PUT')).toHaveLength(0);
  });
});

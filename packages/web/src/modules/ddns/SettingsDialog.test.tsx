import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { SettingsDialog } from './SettingsDialog';

let net: FakeFetch;

const settings = {
  enabled: false,
  firstCheckDelay: 0,
  interval: 300,
  multiLevelSuffixes: [],
  webhook: { enabled: false, url: '', method: 'GET', headers: [], body: '', successStrings: [] },
};
const puts = () => net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'PUT');

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('settings dialog', () => {
  it('checks the interval with the spec message, then sends the settings', async () => {
    net.route('api/ddns/settings', (_url, init) =>
      init.method === 'PUT' ? { body: { ret: 0, settings } } : { body: { ret: 0, settings } },
    );
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open onClose={onClose} />);
    const interval = await screen.findByTestId('ddns-settings-interval');
    await userEvent.clear(interval);
    await userEvent.type(interval, '10');
    await userEvent.click(screen.getByTestId('ddns-settings-save'));
    expect(await screen.findByText('检测间隔范围 30-3600 秒')).toBeTruthy();
    expect(puts()).toHaveLength(0);

    await userEvent.clear(interval);
    await userEvent.type(interval, '30');
    await userEvent.click(screen.getByTestId('ddns-settings-enabled'));
    await userEvent.type(screen.getByPlaceholderText(/dynv6\.net/), 'dynv6.net');
    await userEvent.click(screen.getByTestId('ddns-settings-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = JSON.parse(String((puts()[0][1] as RequestInit).body));
    expect(body).toMatchObject({ enabled: true, interval: 30, multiLevelSuffixes: ['dynv6.net'] });
  });

  it('a refused suffix lands on the suffix field', async () => {
    net.route('api/ddns/settings', (_url, init) =>
      init.method === 'PUT'
        ? { status: 400, body: { ret: 1, msg: 'x', field: 'multiLevelSuffixes.0', code: 'suffixInvalid' } }
        : { body: { ret: 0, settings } },
    );
    renderWithProviders(<SettingsDialog open onClose={vi.fn()} />);
    await userEvent.type(await screen.findByPlaceholderText(/dynv6\.net/), 'bad suffix');
    await userEvent.click(screen.getByTestId('ddns-settings-save'));
    expect(await screen.findByText('后缀应为域名结尾，如 com.cn')).toBeTruthy();
  });
});

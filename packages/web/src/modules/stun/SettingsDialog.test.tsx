import { DEFAULT_STUN_SERVERS } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { SettingsDialog } from './SettingsDialog';
import { listReply, settings } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const puts = () =>
  net.fn.mock.calls
    .filter(([, init]) => (init as RequestInit)?.method === 'PUT')
    .map(([, init]) => init as RequestInit);

/** The settings route: GET answers `stored`; a PUT is recorded and answered by `answer`. */
function serve(stored = settings(), answer?: () => { status: number; body: unknown }) {
  const bodies: unknown[] = [];
  net.route('api/stun/settings', (_url, init) => {
    if (init.method !== 'PUT') return { body: { ret: 0, settings: stored, summary: listReply([]).summary } };
    bodies.push(JSON.parse(String(init.body)));
    return answer?.() ?? { body: { ret: 0, settings: stored, summary: listReply([]).summary } };
  });
  return bodies;
}

describe('STUN global settings', () => {
  it('puts the default server list back and sends only that change', async () => {
    const bodies = serve(settings({ stunServers: ['stun.custom.example:3478'] }));
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open onClose={onClose} />);
    const servers = (await screen.findByTestId('stun-settings-servers')) as HTMLTextAreaElement;
    expect(servers.value).toBe('stun.custom.example:3478');
    await userEvent.click(screen.getByTestId('stun-settings-reset-servers'));
    expect(servers.value).toBe(DEFAULT_STUN_SERVERS.join('\n'));
    await userEvent.click(screen.getByTestId('stun-settings-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([{ stunServers: [...DEFAULT_STUN_SERVERS] }]);
  });

  it('refuses a keep-alive address that is not http:// before sending', async () => {
    serve();
    renderWithProviders(<SettingsDialog open onClose={() => {}} />);
    const url = await screen.findByTestId('stun-settings-keepalive');
    await userEvent.clear(url);
    await userEvent.click(url);
    await userEvent.paste('https://keepalive.example/');
    await userEvent.click(screen.getByTestId('stun-settings-save'));
    expect(await within(itemOf(url)).findByText('保活地址应为 http:// 开头的 URL')).toBeTruthy();
    expect(puts()).toHaveLength(0);
  });

  it('shows the server’s refusal of a server entry beside the list', async () => {
    serve(settings(), () => ({
      status: 400,
      body: {
        ret: 1,
        msg: 'stunServers.1: a STUN server is host or host:port, IPv4 or a name (x)',
        field: 'stunServers.1',
        code: 'serverInvalid',
        params: { entry: 'x' },
      },
    }));
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open onClose={onClose} />);
    const heartbeat = within(itemOf(await screen.findByText('心跳间隔'))).getByRole('spinbutton');
    await userEvent.clear(heartbeat);
    await userEvent.type(heartbeat, '30');
    await userEvent.click(screen.getByTestId('stun-settings-save'));
    const servers = screen.getByTestId('stun-settings-servers');
    expect(
      await within(itemOf(servers)).findByText('STUN 服务器应为 host 或 host:port（IPv4 或域名）：x'),
    ).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(JSON.parse(String(puts()[0]?.body))).toEqual({ heartbeatSec: 30 });
  });
});

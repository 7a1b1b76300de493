import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { SettingsDialog } from './SettingsDialog';
import { MOUNT_KEY, mount, settings, user } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  net.route('api/ssl', { body: { ret: 0, list: [] } });
  net.route('api/netinterfaces', { body: { ret: 0, data: { IPv4NewInterfaces: [], IPv6NewInterfaces: [] } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;

/** The settings route: GET answers `stored`; a PUT is recorded and answered by `answer`. */
function serve(stored = settings(), answer?: () => { status: number; body: unknown }) {
  const bodies: unknown[] = [];
  net.route('api/ftpserver/settings', (_url, init) => {
    if (init.method !== 'PUT') return { body: { ret: 0, settings: stored } };
    bodies.push(JSON.parse(String(init.body)));
    return answer?.() ?? { body: { ret: 0, settings: stored } };
  });
  return bodies;
}

const MOUNTS = [mount()];
const USERS = [user()];

async function setNumber(testId: string, value: string) {
  const box = await screen.findByTestId(testId);
  await userEvent.clear(box);
  await userEvent.paste(value);
  return box;
}

describe('FTP server settings', () => {
  it('sends only the sections that changed: the port and the passive range with its announced address', async () => {
    const bodies = serve();
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open mounts={MOUNTS} users={USERS} onClose={onClose} />);
    await setNumber('ftp-settings-port', '2200');
    await setNumber('ftp-settings-passive-min', '40000');
    await setNumber('ftp-settings-passive-max', '40009');
    await userEvent.click(screen.getByTestId('ftp-settings-announce'));
    await userEvent.paste('nas.example.com');
    // The NAT hint names what to forward, as typed.
    expect(screen.getByTestId('ftp-settings-nat-hint').textContent).toContain('2200');
    expect(screen.getByTestId('ftp-settings-nat-hint').textContent).toContain('40000-40009');
    await userEvent.click(screen.getByTestId('ftp-settings-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([
      {
        port: 2200,
        passive: { portMin: 40000, portMax: 40009, announceAddress: 'nas.example.com', announceForLan: false },
      },
    ]);
  });

  it('refuses a passive range that holds the control port, beside the range, before sending', async () => {
    const bodies = serve();
    renderWithProviders(<SettingsDialog open mounts={MOUNTS} users={USERS} onClose={() => {}} />);
    await setNumber('ftp-settings-port', '50050');
    await userEvent.click(screen.getByTestId('ftp-settings-save'));
    const min = screen.getByTestId('ftp-settings-passive-min');
    expect(await within(itemOf(min)).findByText('被动端口范围 50000-50100 包含了控制端口 50050')).toBeTruthy();
    expect(bodies).toHaveLength(0);
  });

  it('refuses a bad list entry, naming it, and turns the anonymous mounts into read-only access', async () => {
    const bodies = serve();
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open mounts={MOUNTS} users={USERS} onClose={onClose} />);
    const allow = await screen.findByTestId('ftp-settings-allow');
    await userEvent.type(within(allow).getByRole('combobox'), '192.168.1.0/24 nonsense ');
    await userEvent.click(screen.getByTestId('ftp-settings-save'));
    expect(await within(itemOf(allow)).findByText('不是有效的 IP 地址或 CIDR：nonsense')).toBeTruthy();
    expect(bodies).toHaveLength(0);

    await userEvent.click(
      within(allow).getByText('nonsense').parentElement?.querySelector('.ant-tag-close-icon') as Element,
    );
    await userEvent.click(screen.getByTestId('ftp-settings-anonymous'));
    await userEvent.click(within(screen.getByTestId('ftp-settings-anonymous-mounts')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('/share'));
    await userEvent.click(screen.getByTestId('ftp-settings-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([
      { allowList: ['192.168.1.0/24'], anonymous: { enabled: true, access: { [MOUNT_KEY]: 'ro' } } },
    ]);
  });

  it('shows the server’s refusal of the announced address beside it', async () => {
    const bodies = serve(settings(), () => ({
      status: 400,
      body: {
        ret: 1,
        msg: 'passive.announceAddress: the announced address is an IPv4 address or a host name',
        field: 'passive.announceAddress',
        code: 'announceInvalid',
        params: {},
      },
    }));
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open mounts={MOUNTS} users={USERS} onClose={onClose} />);
    await setNumber('ftp-settings-idleTimeoutSec', '600');
    await userEvent.click(screen.getByTestId('ftp-settings-save'));
    const announce = screen.getByTestId('ftp-settings-announce');
    expect(await within(itemOf(announce)).findByText(/公布地址须为 IPv4 地址或主机名/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(bodies).toEqual([{ idleTimeoutSec: 600 }]);
  });

  it('offers the store’s certificate names (no wildcards), and hides the picker while TLS is off', async () => {
    const bodies = serve();
    net.route('api/ssl', {
      body: {
        ret: 0,
        list: [
          {
            Key: 'c1',
            Remark: 'home',
            Enable: true,
            AddTime: '2024-01-01T00:00:00Z',
            Fingerprint: 'ab',
            Expired: false,
            CertsInfo: [
              {
                Domains: ['nas.example.com', '*.example.com'],
                NotBeforeTime: '2024-01-01T00:00:00Z',
                NotAfterTime: '2099-01-01T00:00:00Z',
              },
            ],
          },
        ],
      },
    });
    const onClose = vi.fn();
    renderWithProviders(<SettingsDialog open mounts={MOUNTS} users={USERS} onClose={onClose} />);
    const cert = await screen.findByTestId('ftp-settings-certificate');
    const modes = screen.getByTestId('ftp-settings-tls-mode');
    await userEvent.click(within(modes).getByText('关闭'));
    expect(itemOf(cert).classList.contains('ant-form-item-hidden')).toBe(true);
    await userEvent.click(within(modes).getByText('强制'));
    expect(itemOf(cert).classList.contains('ant-form-item-hidden')).toBe(false);
    await userEvent.click(within(cert).getByRole('combobox'));
    const list = await waitFor(() => {
      const open = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      if (!open) throw new Error('no open list');
      return within(open);
    });
    const option = (await list.findAllByText('nas.example.com')).find((el) => el.closest('.ant-select-item-option'));
    if (!option) throw new Error('no option for nas.example.com');
    expect(list.getByText('home · 有效至 2099-01-01')).toBeTruthy();
    expect(list.queryByText('*.example.com')).toBeNull();
    await userEvent.click(option);
    await userEvent.click(screen.getByTestId('ftp-settings-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([{ tls: { mode: 'required', certificate: 'nas.example.com' } }]);
  });
});

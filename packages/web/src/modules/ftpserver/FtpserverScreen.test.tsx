import { SECRET_MASK } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import enUS from '../../i18n/en_US.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import FtpserverScreen from './FtpserverScreen';
import { MOUNT_KEY, mount, session, settings, status, USER_KEY, user } from './testData';

let net: FakeFetch;

const bodiesOf = (method: string, path: string) =>
  net.fn.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('zh_CN');
});

/** A busy server: one TLS session uploading, a storage gone, a second mount read-only for bob. */
function serveBusy(over: { status?: Parameters<typeof status>[0] } = {}) {
  const share = mount();
  const gone = mount({ key: 'Mnt00002', name: 'old', storage: 'Sto00009', storageName: '', available: false });
  net.route('api/ftpserver/status', {
    body: {
      ret: 0,
      status: status({
        bytesIn: 1_234_567,
        bytesOut: 42_000,
        logins: 5,
        failedLogins: 2,
        // Two mounts of one missing storage: the same reason twice.
        reasons: [
          { code: 'storageUnavailable', params: { storage: 'Sto00009' } },
          { code: 'storageUnavailable', params: { storage: 'Sto00009' } },
        ],
        sessions: [
          session({
            transfer: {
              verb: 'STOR',
              path: '/share/photos/a.jpg',
              since: Date.parse('2024-05-01T10:01:00Z'),
              bytes: 3_000_000,
              rate: 2_048_000,
            },
          }),
          session({ id: 's2', user: '', address: '192.168.1.30:40000', tls: false, protectedData: false, cwd: '/' }),
        ],
        ...over.status,
      }),
    },
  });
  net.route('api/ftpserver/settings', { body: { ret: 0, settings: settings({ maxConnections: 64 }) } });
  net.route('api/ftpserver/mounts', { body: { ret: 0, list: [share, gone] } });
  net.route('api/ftpserver/users', {
    body: {
      ret: 0,
      list: [
        user(),
        user({ key: 'Usr00002', name: 'bob', password: '', enabled: false, access: { [MOUNT_KEY]: 'ro' } }),
      ],
    },
  });
}

describe('FTP server screen', () => {
  it('shows where it listens, TLS, sessions with the live transfer, traffic and what is wrong, in Chinese', async () => {
    serveBusy();
    net.route('api/storagemanagement/storages', {
      body: { ret: 0, enabled: true, list: [{ key: 'Sto00009', name: 'Old disk' }] },
    });
    renderWithProviders(<FtpserverScreen />);
    const bar = await screen.findByTestId('ftp-status');
    expect(within(bar).getByTestId('ftp-status-listen').textContent).toBe('监听*:2121监听中');
    expect(within(bar).getByTestId('ftp-status-tls').textContent).toBe('TLS可选');
    expect(await within(bar).findByText('2 / 64')).toBeTruthy();
    expect(within(bar).getByTestId('ftp-status-in').textContent).toBe('接收1.23 MB2.05 MB/s');
    expect(within(bar).getByTestId('ftp-status-logins').textContent).toBe('登录5失败 2');
    expect(screen.getAllByTestId('ftp-reason-storageUnavailable').map((a) => a.textContent)).toEqual([
      '存储 Old disk 不可用（存储管理未开启或该条目已删除）',
    ]);
    // Every word on the screen is translated (no locale key shows as itself).
    expect(document.body.textContent).not.toMatch(/ftpserver\.\w/);

    const sessions = screen.getByTestId('ftp-sessions');
    const upload = within(sessions).getByTestId('ftp-session-transfer-s1');
    expect(upload.textContent).toContain('上传 STOR');
    expect(upload.textContent).toContain('/share/photos/a.jpg');
    expect(upload.textContent).toContain('3 MB');
    expect(upload.textContent).toContain('2.05 MB/s');
    expect(within(within(sessions).getByTestId('ftp-session-s1')).getByText('PROT P')).toBeTruthy();
    expect(within(within(sessions).getByTestId('ftp-session-s2')).getByText('未登录')).toBeTruthy();
  });

  it('lists mounts with their storage state and users with their access, never a password', async () => {
    serveBusy();
    renderWithProviders(<FtpserverScreen />);
    const mounts = await screen.findByTestId('ftp-mounts');
    const share = await within(mounts).findByTestId(`ftp-mount-${MOUNT_KEY}`);
    expect(share.textContent).toContain('/share');
    expect(share.textContent).toContain('NAS disk');
    expect(share.textContent).toContain('alice · 读写');
    expect(share.textContent).toContain('bob · 只读');
    expect(within(mounts).getByTestId('ftp-mount-unavailable-Mnt00002').textContent).toBe('不可用');
    expect(within(mounts).getByTestId('ftp-mount-Mnt00002').textContent).toContain('Sto00009');

    const users = screen.getByTestId('ftp-users');
    const alice = within(users).getByTestId(`ftp-user-${USER_KEY}`);
    expect(within(alice).getByText('已设置')).toBeTruthy();
    expect(within(alice).getByTestId(`ftp-user-access-${USER_KEY}`).textContent).toBe('/share · 读写');
    expect(within(within(users).getByTestId('ftp-user-Usr00002')).getByText('未设置')).toBeTruthy();
    expect(users.textContent).not.toContain(SECRET_MASK);
  });

  it('switches a user and a mount through their enable calls', async () => {
    serveBusy();
    net.route(`api/ftpserver/users/${USER_KEY}/enable`, { body: { ret: 0, user: user({ enabled: false }) } });
    net.route(`api/ftpserver/mounts/${MOUNT_KEY}/enable`, { body: { ret: 0, mount: mount({ enabled: false }) } });
    renderWithProviders(<FtpserverScreen />);
    await userEvent.click(await screen.findByTestId(`ftp-user-switch-${USER_KEY}`));
    await waitFor(() =>
      expect(bodiesOf('PUT', `api/ftpserver/users/${USER_KEY}/enable`)).toEqual([{ enabled: false }]),
    );
    await userEvent.click(screen.getByTestId(`ftp-mount-switch-${MOUNT_KEY}`));
    await waitFor(() =>
      expect(bodiesOf('PUT', `api/ftpserver/mounts/${MOUNT_KEY}/enable`)).toEqual([{ enabled: false }]),
    );
  });

  it('offers to switch the module on while it is off, through the core switch', async () => {
    serveBusy({ status: { enabled: false, listening: false, sessions: [], reasons: [{ code: 'moduleDisabled' }] } });
    net.route('api/modules/ftpserver/enabled', { body: { ret: 0 } });
    net.route('api/storagemanagement/storages', {
      body: { ret: 0, enabled: true, list: [{ key: 'Sto00009', name: 'Old disk' }] },
    });
    renderWithProviders(<FtpserverScreen />);
    await screen.findByTestId('ftp-module-disabled');
    expect(screen.queryByTestId('ftp-sessions')).toBeNull();
    expect(screen.queryByTestId('ftp-status-listening')).toBeNull();
    // Said once (the notice), not again as a reason; a mount's storage is not "unavailable" while
    // the server is off, and its name comes from storage management.
    expect(screen.queryByTestId('ftp-reason-moduleDisabled')).toBeNull();
    expect(screen.queryByTestId('ftp-mount-unavailable-Mnt00002')).toBeNull();
    expect(await within(screen.getByTestId('ftp-mount-Mnt00002')).findByText('Old disk')).toBeTruthy();
    await userEvent.click(screen.getByTestId('ftp-module-enable'));
    await waitFor(() => expect(bodiesOf('PUT', 'api/modules/ftpserver/enabled')).toEqual([{ enabled: true }]));
  });

  it('says in Chinese who holds the port when switching on is refused', async () => {
    serveBusy({ status: { enabled: false, listening: false, sessions: [], reasons: [{ code: 'moduleDisabled' }] } });
    net.route('api/modules/ftpserver/enabled', {
      status: 409,
      body: {
        ret: 1,
        msg: 'TCP port 2121 is already used by portforward "nas"',
        field: 'port',
        code: 'portTaken',
        params: { proto: 'tcp', port: 2121, module: 'portforward', item: 'nas' },
      },
    });
    renderWithProviders(<FtpserverScreen />);
    await userEvent.click(await screen.findByTestId('ftp-module-enable'));
    expect(await screen.findByText('tcp 端口 2121 已被 portforward nas 占用')).toBeTruthy();
  });

  it('says so in English, with a missing certificate beside the TLS mode', async () => {
    i18next.addResourceBundle('en_US', 'translation', enUS, true, true);
    await i18next.changeLanguage('en_US');
    serveBusy({ status: { tlsReady: false, reasons: [{ code: 'noCertificate' }] } });
    renderWithProviders(<FtpserverScreen />);
    const tls = await screen.findByTestId('ftp-status-tls');
    await waitFor(() => expect(tls.textContent).toBe('TLSOfferedNo certificate'));
    expect(screen.getByTestId('ftp-reason-noCertificate').textContent).toBe(
      'No certificate is stored: AUTH TLS is refused',
    );
    expect(screen.getByTestId('ftp-session-transfer-s1').textContent).toContain('Upload STOR');
  });
});

import {
  type WebdavMount,
  type WebdavSettings,
  type WebdavStatus,
  type WebdavUserView,
  webdavSettingsSchema,
} from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import enUS from '../../i18n/en_US.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import WebdavScreen from './WebdavScreen';

let net: FakeFetch;

const settings = (patch: Partial<WebdavSettings> = {}): WebdavSettings => ({
  ...webdavSettingsSchema.parse({ enabled: true, port: 16680 }),
  ...patch,
});
const status = (patch: Partial<WebdavStatus> = {}): WebdavStatus => ({
  state: 'running',
  warnings: [{ code: 'plainHttpPasswords', params: {}, text: 'x' }],
  address: '',
  port: 16680,
  scheme: 'http',
  pathPrefix: '/',
  connections: 3,
  requests: 42,
  bytesIn: 1234567,
  bytesOut: 2000,
  requestRate: 1,
  rateIn: 0,
  rateOut: 0,
  refused: 0,
  ...patch,
});
const mount: WebdavMount = { key: 'M1', name: 'photos', storage: 'S1', enabled: true, public: false };
const user: WebdavUserView = { key: 'U1', name: 'alice', password: '******', enabled: true, access: { M1: 'rw' } };

function routes(s: WebdavSettings, st: WebdavStatus, users: WebdavUserView[] = [user]) {
  net.route('api/webdav/status', { body: { ret: 0, enabled: s.enabled, status: st, lastLogs: [] } });
  net.route('api/webdav/settings', { body: { ret: 0, settings: s, status: st } });
  net.route('api/webdav/mounts', { body: { ret: 0, list: [mount] } });
  net.route('api/webdav/users', (_url, init) =>
    (init.method ?? 'GET') === 'GET'
      ? { body: { ret: 0, list: users } }
      : {
          status: 400,
          body: {
            ret: 1,
            msg: 'name: another user is called alice',
            code: 'userNameTaken',
            field: 'name',
            params: { name: 'alice' },
          },
        },
  );
  net.route('api/storagemanagement/storages', { body: { ret: 0, enabled: true, list: [{ key: 'S1', name: 'Disk' }] } });
  net.route('api/ssl', { body: { ret: 0, list: [] } });
}

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('zh_CN');
});

describe('WebDAV screen', () => {
  it('warns about passwords over plain HTTP and tells each client what to type', async () => {
    routes(settings({ pathPrefix: '/dav' }), status({ pathPrefix: '/dav' }));
    renderWithProviders(<WebdavScreen />);
    expect((await screen.findByTestId('webdav-plain-http')).textContent).toContain('用户通过普通 HTTP 登录');
    expect((await screen.findByTestId('webdav-state')).textContent).toBe('监听中');
    const host = window.location.hostname || 'localhost';
    expect(screen.getByTestId('webdav-help-windows').textContent).toBe(`\\\\${host}@16680\\DavWWWRoot\\dav`);
    expect(screen.getByTestId('webdav-url').textContent).toContain(`http://${host}:16680/dav/`);
    expect(screen.getByTestId('webdav-mounts').textContent).toContain('/photos');
    expect(screen.getByTestId('webdav-mounts').textContent).toContain('Disk');
    expect(screen.getByTestId('webdav-users').textContent).toContain('/photos 读写');
  });

  it('over HTTPS there is no banner and the help names the certificate’s host (English)', async () => {
    i18next.addResourceBundle('en_US', 'translation', enUS, true, true);
    await i18next.changeLanguage('en_US');
    routes(
      settings({ tls: { enabled: true, certificate: 'nas.example.com' } }),
      status({ scheme: 'https', warnings: [{ code: 'noMounts', params: {}, text: 'x' }] }),
    );
    renderWithProviders(<WebdavScreen />);
    expect((await screen.findByTestId('webdav-state')).textContent).toBe('Listening');
    expect(screen.queryByTestId('webdav-plain-http')).toBeNull();
    expect(screen.getByTestId('webdav-help-windows').textContent).toBe('\\\\nas.example.com@SSL@16680\\DavWWWRoot');
    expect(screen.getByTestId('webdav-notes').textContent).toContain('No mount is switched on');
  });

  it('adding a user sends the password once and the access per mount; a refusal lands on its field', async () => {
    routes(settings(), status(), []);
    renderWithProviders(<WebdavScreen />);
    await userEvent.click(await screen.findByTestId('webdav-add-user'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('webdav-user-name'), 'alice');
    await userEvent.type(within(dialog).getByTestId('webdav-user-password'), 'long-password');
    await userEvent.click(within(dialog).getByTestId('webdav-access-photos'));
    await userEvent.click(await screen.findByTitle('只读'));
    await userEvent.click(within(dialog).getByTestId('webdav-user-save'));
    await waitFor(() => expect(within(dialog).getByText('已有用户叫 alice')).toBeTruthy());
    const calls = net.fn.mock.calls.map(([url, init]) => [String(url), init as RequestInit] as const);
    const post = calls.find(([url, init]) => url.split('?')[0] === 'api/webdav/users' && init?.method === 'POST');
    expect(post, JSON.stringify(calls.map(([u, i]) => [u, i?.method]))).toBeDefined();
    expect(JSON.parse(String(post?.[1].body))).toEqual({
      name: 'alice',
      password: 'long-password',
      enabled: true,
      access: { M1: 'ro' },
    });
  });
});

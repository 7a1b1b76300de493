import { SECRET_MASK } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { MOUNT_KEY, mount, USER_KEY, user } from './testData';
import { UserDialog } from './UserDialog';

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
const sent = () =>
  net.fn.mock.calls
    .filter(([, init]) => ['POST', 'PUT'].includes(String((init as RequestInit)?.method)))
    .map(([url, init]) => ({ url: String(url).split('?')[0], body: JSON.parse(String((init as RequestInit).body)) }));

const MOUNTS = [mount(), mount({ key: 'Mnt00002', name: 'media', storageReadOnly: true })];

describe('FTP user dialog', () => {
  it('a new user needs a password; it is sent as typed with one access choice per mount', async () => {
    net.route('api/ftpserver/users', { body: { ret: 0, user: user() } });
    const onSaved = vi.fn();
    renderWithProviders(<UserDialog open mounts={MOUNTS} otherNames={[]} onClose={() => {}} onSaved={onSaved} />);
    await userEvent.type(await screen.findByTestId('ftp-user-name'), 'alice');
    await userEvent.click(screen.getByTestId('ftp-user-save'));
    const password = screen.getByTestId('ftp-user-password');
    expect(await within(itemOf(password)).findByText('请填写密码')).toBeTruthy();
    expect(sent()).toHaveLength(0);

    await userEvent.type(password, 's3cret pass');
    // Read-write on share; media's storage is read-only, so read-write is not offered there.
    const share = screen.getByTestId(`ftp-user-access-${MOUNT_KEY}`);
    await userEvent.click(within(share).getByText('读写'));
    const media = screen.getByTestId('ftp-user-access-Mnt00002');
    expect((within(media).getByDisplayValue('rw') as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByTestId('ftp-user-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent()).toEqual([
      {
        url: 'api/ftpserver/users',
        body: { name: 'alice', enabled: true, password: 's3cret pass', access: { [MOUNT_KEY]: 'rw', Mnt00002: 'ro' } },
      },
    ]);
  });

  it('never shows the stored password; left empty it keeps it (the mask is sent), none takes a mount away', async () => {
    net.route(`api/ftpserver/users/${USER_KEY}`, { body: { ret: 0, user: user() } });
    const onSaved = vi.fn();
    renderWithProviders(
      <UserDialog
        open
        user={user({ access: { [MOUNT_KEY]: 'rw', Mnt00002: 'ro' } })}
        mounts={MOUNTS}
        otherNames={['bob']}
        onClose={() => {}}
        onSaved={onSaved}
      />,
    );
    const password = (await screen.findByTestId('ftp-user-password')) as HTMLInputElement;
    expect(password.value).toBe('');
    expect(document.body.innerHTML).not.toContain(SECRET_MASK);
    await userEvent.click(within(screen.getByTestId('ftp-user-access-Mnt00002')).getByText('无'));
    await userEvent.click(screen.getByTestId('ftp-user-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent()).toEqual([
      {
        url: `api/ftpserver/users/${USER_KEY}`,
        body: { name: 'alice', enabled: true, password: SECRET_MASK, access: { [MOUNT_KEY]: 'rw' } },
      },
    ]);
  });

  it('refuses a name another user has and the anonymous names before sending', async () => {
    renderWithProviders(<UserDialog open mounts={MOUNTS} otherNames={['Bob']} onClose={() => {}} onSaved={() => {}} />);
    const name = await screen.findByTestId('ftp-user-name');
    await userEvent.type(name, 'bob');
    await userEvent.type(screen.getByTestId('ftp-user-password'), 'pw');
    await userEvent.click(screen.getByTestId('ftp-user-save'));
    expect(await within(itemOf(name)).findByText('已有名为 bob 的条目')).toBeTruthy();
    await userEvent.clear(name);
    await userEvent.type(name, 'Anonymous');
    await userEvent.click(screen.getByTestId('ftp-user-save'));
    expect(await within(itemOf(name)).findByText(/Anonymous 是匿名登录名/)).toBeTruthy();
    expect(sent()).toHaveLength(0);
  });

  it('shows the server’s refusal of the whole config beside the field it names', async () => {
    // Another user called carol was added meanwhile: the config check names users.<n>.name.
    net.route('api/ftpserver/users', {
      status: 400,
      body: {
        ret: 1,
        msg: 'users.1.name: another entry is called carol',
        field: 'users.1.name',
        code: 'nameTaken',
        params: { name: 'carol' },
      },
    });
    const onSaved = vi.fn();
    renderWithProviders(<UserDialog open mounts={MOUNTS} otherNames={[]} onClose={() => {}} onSaved={onSaved} />);
    const name = await screen.findByTestId('ftp-user-name');
    await userEvent.type(name, 'carol');
    await userEvent.type(screen.getByTestId('ftp-user-password'), 'pw');
    await userEvent.click(screen.getByTestId('ftp-user-save'));
    expect(await within(itemOf(name)).findByText('已有名为 carol 的条目')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });
});

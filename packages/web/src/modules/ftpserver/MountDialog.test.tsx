import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { MountDialog } from './MountDialog';
import { mount } from './testData';

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

/** Storage management's list: entries as it reads them (only what the picker uses). */
const storages = (list: { key: string; name: string; readOnly?: boolean; state?: string }[]) =>
  net.route('api/storagemanagement/storages', {
    body: {
      ret: 0,
      enabled: true,
      list: list.map((s) => ({ kind: 'local', readOnly: false, state: 'online', mounts: [], ...s })),
    },
  });

describe('FTP mount dialog', () => {
  it('picks a storage of storage management and refuses a folder name another mount has', async () => {
    storages([
      { key: 'Sto00001', name: 'NAS disk' },
      { key: 'Sto00002', name: 'USB stick' },
      { key: 'Sto00003', name: 'Archive', readOnly: true, state: 'offline' },
    ]);
    net.route('api/ftpserver/mounts', { body: { ret: 0, mount: mount() } });
    const onSaved = vi.fn();
    renderWithProviders(<MountDialog open otherNames={['Media']} onClose={() => {}} onSaved={onSaved} />);
    const name = await screen.findByTestId('ftp-mount-name');
    await userEvent.click(screen.getByTestId('ftp-mount-save'));
    expect(await within(itemOf(name)).findByText('请填写名称')).toBeTruthy();
    expect(within(itemOf(screen.getByTestId('ftp-mount-storage'))).getByText('请选择存储')).toBeTruthy();

    await userEvent.type(name, 'media');
    await userEvent.click(within(screen.getByTestId('ftp-mount-storage')).getByRole('combobox'));
    // Each storage with its kind, and what keeps writes or clients away.
    expect((await screen.findByTitle('Archive')).textContent).toBe('Archive本地文件夹只读存储离线');
    await userEvent.click(await screen.findByTitle('USB stick'));
    await userEvent.click(screen.getByTestId('ftp-mount-save'));
    expect(await within(itemOf(name)).findByText('已有名为 media 的条目')).toBeTruthy();
    expect(sent()).toHaveLength(0);

    await userEvent.clear(name);
    await userEvent.type(name, 'usb');
    await userEvent.click(screen.getByTestId('ftp-mount-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent()).toEqual([
      { url: 'api/ftpserver/mounts', body: { name: 'usb', storage: 'Sto00002', enabled: true } },
    ]);
  });

  it('shows the save’s refusal of a storage that is gone beside the storage picker', async () => {
    storages([{ key: 'Sto00001', name: 'NAS disk' }]);
    net.route('api/ftpserver/mounts', {
      status: 400,
      body: {
        ret: 1,
        msg: 'mounts.1.storage: storage management has no storage Sto00001',
        field: 'mounts.1.storage',
        code: 'storageNotFound',
        params: { storage: 'Sto00001' },
      },
    });
    const onSaved = vi.fn();
    renderWithProviders(<MountDialog open otherNames={[]} onClose={() => {}} onSaved={onSaved} />);
    await userEvent.type(await screen.findByTestId('ftp-mount-name'), 'disk');
    const picker = screen.getByTestId('ftp-mount-storage');
    await userEvent.click(within(picker).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('NAS disk'));
    await userEvent.click(screen.getByTestId('ftp-mount-save'));
    expect(await within(itemOf(picker)).findByText('存储管理中没有存储 Sto00001')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('without storages, says where to add one', async () => {
    storages([]);
    renderWithProviders(<MountDialog open otherNames={[]} onClose={() => {}} onSaved={() => {}} />);
    const note = await screen.findByTestId('ftp-no-storages');
    expect(note.textContent).toContain('还没有存储');
    expect(within(note).getByRole('link').getAttribute('href')).toBe('/storagemanagement');
  });
});

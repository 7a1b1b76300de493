import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { confirmDialog } from '../../test/antd';
import { renderWithProviders } from '../../test/render';
import { UpdatePanel } from './UpdatePanel';

const upload = vi.hoisted(() => vi.fn());
vi.mock('../../api/client', async (original) => ({ ...(await original<object>()), upload }));

const unsignedRefusal = () =>
  new ApiError('ret', 'not a valid release package: the package is not signed', {
    status: 409,
    ret: 1,
    reply: { ret: 1, msg: 'not a valid release package: the package is not signed', code: 'releaseUnsigned' },
  });

beforeEach(() => {
  resetClient();
  setItem('token', 't');
  upload.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function choose(file = new File(['x'], 'lucky.tar.gz')) {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  await userEvent.upload(input, file);
  return file;
}

describe('update panel', () => {
  it('an unsigned package: a warning first, and only on "go on" is it sent again with allowUnsigned', async () => {
    upload
      .mockRejectedValueOnce(unsignedRefusal())
      .mockResolvedValueOnce({ ret: 0, version: '9.9.9', key: 'k', signature: { status: 'unsigned' } });
    renderWithProviders(<UpdatePanel onRestarting={() => {}} />);
    const file = await choose();
    expect((await screen.findAllByText('安装没有可信签名的更新包?')).length).toBeGreaterThan(0);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload.mock.calls[0][2].query).toBeUndefined();
    await userEvent.click((await screen.findAllByTestId('update-unsigned-go-on'))[0]);
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(2));
    expect(upload.mock.calls[1][1]).toBe(file);
    expect(upload.mock.calls[1][2].query).toEqual({ allowUnsigned: '1' });
    expect((await screen.findAllByText('没有可信签名：你已确认警告。')).length).toBeGreaterThan(0);
  });

  it('cancelling the warning sends nothing more', async () => {
    upload.mockRejectedValueOnce(unsignedRefusal());
    renderWithProviders(<UpdatePanel onRestarting={() => {}} />);
    await choose();
    await screen.findAllByText('安装没有可信签名的更新包?');
    await userEvent.click((await confirmDialog()).getByRole('button', { name: /取\s*消/ }));
    // "Go on" would call upload at once (synchronously in the click): cancel did not.
    expect(upload).toHaveBeenCalledTimes(1);
  });

  it('a signed package goes straight to the install question, naming the key', async () => {
    upload.mockResolvedValueOnce({
      ret: 0,
      version: '9.9.9',
      key: 'k',
      signature: { status: 'trusted', keyId: 'f1492102f0ff79ec', keyName: 'Lucky console release key 2026' },
    });
    renderWithProviders(<UpdatePanel onRestarting={() => {}} />);
    await choose();
    expect(await screen.findByText(/由 Lucky console release key 2026 签名（密钥 f1492102f0ff79ec）/)).toBeTruthy();
    expect(screen.queryAllByText('安装没有可信签名的更新包?')).toHaveLength(0);
    expect(upload).toHaveBeenCalledTimes(1);
  });
});

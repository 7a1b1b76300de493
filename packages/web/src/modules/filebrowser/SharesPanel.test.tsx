import { SECRET_MASK } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { popconfirm } from '../../test/antd';
import { renderWithProviders } from '../../test/render';
import { SharesPanel } from './SharesPanel';
import { fakeNetworkPerTest, share } from './shareTestKit';

// No pause between typed keys: the tests wait on the page, not on time.
const user = userEvent.setup({ delay: null });
const network = fakeNetworkPerTest();
const { bodies } = network;

describe('SharesPanel', () => {
  const list = [
    share(),
    share({
      key: 'K2',
      id: 'BBBBBBBBBBBBBBBBBBBBBB',
      url: '/s/BBBBBBBBBBBBBBBBBBBBBB',
      kind: 'dir',
      path: '/docs',
      maxDownloads: 5,
      downloads: 5,
      state: 'exhausted',
      password: SECRET_MASK,
      expiresAt: dayjs('2030-05-06T23:59:59').valueOf(),
      note: 'team',
    }),
    share({ key: 'K3', enabled: false, state: 'disabled' }),
  ];

  function serve() {
    network.net().route('api/filebrowser/shares', { body: { ret: 0, list } });
    for (const s of list) network.net().route(`api/filebrowser/shares/${s.key}`, { body: { ret: 0, share: s } });
  }

  it('lists every link with its state, downloads against the limit and expiry', async () => {
    serve();
    renderWithProviders(<SharesPanel />);
    expect((await screen.findByTestId('fb-share-state-K2')).textContent).toBe('次数已用完');
    expect(screen.getByTestId('fb-share-state-K1').textContent).toBe('有效');
    expect(screen.getByTestId('fb-share-state-K3').textContent).toBe('已停用');
    const row = screen.getByTestId('fb-share-state-K2').closest('tr') as HTMLElement;
    expect(row.textContent).toContain('Disk: /docs');
    expect(row.textContent).toContain('team');
    expect(row.textContent).toContain('5 / 5');
    expect(row.textContent).toContain('2030-05-06 23:59');
    const first = screen.getByTestId('fb-share-state-K1').closest('tr') as HTMLElement;
    expect(first.textContent).toContain('0 / ∞');
    expect(first.textContent).toContain('永久有效');
  });

  it('switches a link off and revokes one after the confirmation', async () => {
    serve();
    renderWithProviders(<SharesPanel />);
    await user.click(await screen.findByTestId('fb-share-switch-K1'));
    await waitFor(() => expect(bodies('api/filebrowser/shares/K1', 'PUT')).toEqual([{ enabled: false }]));

    await user.click(screen.getByTestId('fb-share-revoke-K2'));
    expect(network.net().fn.mock.calls.some(([, init]) => (init as RequestInit).method === 'DELETE')).toBe(false);
    const pop = await popconfirm();
    await user.click(pop.getByRole('button', { name: '撤销' }));
    await waitFor(() =>
      expect(
        network
          .net()
          .fn.mock.calls.filter(
            ([url, init]) =>
              String(url).startsWith('api/filebrowser/shares/K2?') && (init as RequestInit).method === 'DELETE',
          ),
      ).toHaveLength(1),
    );
  });

  it('changes a link: only what changed is sent; the masked password is kept unless emptied', async () => {
    serve();
    renderWithProviders(<SharesPanel />);
    await user.click(await screen.findByTestId('fb-share-edit-K2'));
    const dialog = within(
      await screen.findByTestId('fb-share-edit-save').then((b) => b.closest('.ant-modal') as HTMLElement),
    );
    const max = dialog.getByTestId('fb-share-max');
    await user.clear(max);
    await user.type(max, '10');
    await user.click(dialog.getByTestId('fb-share-edit-save'));
    await waitFor(() => expect(bodies('api/filebrowser/shares/K2', 'PUT')).toEqual([{ maxDownloads: 10 }]));

    await user.click(await screen.findByTestId('fb-share-edit-K2'));
    const again = within((await screen.findByTestId('fb-share-edit-save')).closest('.ant-modal') as HTMLElement);
    await user.clear(again.getByTestId('fb-share-password'));
    await user.click(again.getByTestId('fb-share-edit-save'));
    await waitFor(() => expect(bodies('api/filebrowser/shares/K2', 'PUT')[1]).toEqual({ password: '' }));
  });
});

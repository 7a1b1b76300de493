import { filebrowserSettingsSchema } from '@lucky/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import zhCN from '../../i18n/zh_CN.json';
import { renderWithProviders } from '../../test/render';
import { ShareDialog } from './ShareDialog';
import { EXPIRY_CHOICES, expiryOf } from './shareExpiry';
import { fakeNetworkPerTest, share } from './shareTestKit';

// No pause between typed keys: the tests wait on the page, not on time.
const user = userEvent.setup({ delay: null });
const network = fakeNetworkPerTest();
const { bodies } = network;

describe('share expiry', () => {
  it('each choice means its time; a custom date lasts to the end of that day; every choice has its words', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(expiryOf('never', null, now)).toBe(0);
    expect(expiryOf('1d', null, now)).toBe(now + 86_400_000);
    expect(expiryOf('30d', null, now)).toBe(now + 30 * 86_400_000);
    const day = dayjs('2026-03-04T10:00:00');
    expect(expiryOf('custom', day, now)).toBe(dayjs('2026-03-04T23:59:59.999').valueOf());
    const fb = zhCN.filebrowser as Record<string, string>;
    expect(EXPIRY_CHOICES.filter((c) => !fb[`share_expiry_${c}`])).toEqual([]);
    for (const s of ['active', 'expired', 'exhausted', 'disabled', 'missing'])
      expect(fb[`share_state_${s}`]).toBeTruthy();
  });
});

describe('ShareDialog', () => {
  it('makes a link with password, expiry, limit and note, then shows the full link to copy', async () => {
    network.net().route('api/filebrowser/shares', { body: { ret: 0, share: share({ kind: 'dir', path: '/photos' }) } });
    const before = Date.now();
    renderWithProviders(<ShareDialog storage="S1" path="/photos" kind="dir" onClose={vi.fn()} />);
    await user.type(await screen.findByTestId('fb-share-password'), 'secret1');
    const max = screen.getByTestId('fb-share-max');
    await user.clear(max);
    await user.type(max, '3');
    await user.type(screen.getByTestId('fb-share-note'), ' for Bob ');
    await user.click(screen.getByTestId('fb-share-create'));
    const link = (await screen.findByTestId('fb-share-link')) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/s/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(screen.getByTestId('fb-share-copy')).toBeTruthy();
    // No settings answer here: the general words about reaching the link from outside.
    expect(screen.getByTestId('fb-share-reach').textContent).toContain('只有在文件管理设置允许外网访问');
    const [sent] = bodies('api/filebrowser/shares', 'POST');
    expect(sent).toMatchObject({ storage: 'S1', path: '/photos', password: 'secret1', maxDownloads: 3 });
    expect(String(sent.note).trim()).toBe('for Bob');
    // The default expiry is 7 days from now.
    const week = 7 * 86_400_000;
    expect(sent.expiresAt as number).toBeGreaterThanOrEqual(before + week);
    expect(sent.expiresAt as number).toBeLessThanOrEqual(Date.now() + week);
  });

  it('a password too short is refused before sending; a server refusal lands beside its field', async () => {
    network.net().route('api/filebrowser/shares', {
      status: 400,
      body: { ret: 1, code: 'tooBig', field: 'maxDownloads', params: { max: 1_000_000 }, msg: 'too big' },
    });
    renderWithProviders(<ShareDialog storage="S1" path="/a.txt" kind="file" onClose={vi.fn()} />);
    const password = await screen.findByTestId('fb-share-password');
    await user.type(password, 'abc');
    await user.click(screen.getByTestId('fb-share-create'));
    expect(await screen.findByText('密码至少需要 4 个字符')).toBeTruthy();
    expect(bodies('api/filebrowser/shares', 'POST')).toEqual([]);

    await user.clear(password);
    await user.click(screen.getByTestId('fb-share-create'));
    const item = (await screen.findByText('不能大于 1000000')).closest('.ant-form-item') as HTMLElement;
    expect(within(item).getByTestId('fb-share-max')).toBeTruthy();
    expect(bodies('api/filebrowser/shares', 'POST')[0]).toMatchObject({ password: '', expiresAt: expect.any(Number) });
  });

  it('no expiry sends 0; with share links set LAN-only the dialog says so', async () => {
    network.net().route('api/filebrowser/shares', { body: { ret: 0, share: share() } });
    network.net().route('api/filebrowser/settings', {
      body: { ret: 0, settings: filebrowserSettingsSchema.parse({ sharesOutsideLan: false }) },
    });
    renderWithProviders(<ShareDialog storage="S1" path="/a.txt" kind="file" onClose={vi.fn()} />);
    const select = await screen.findByTestId('fb-share-expiry');
    await user.click(within(select.closest('.ant-select') as HTMLElement).getByRole('combobox'));
    await user.click(await screen.findByTitle('永久有效'));
    await user.click(screen.getByTestId('fb-share-create'));
    await screen.findByTestId('fb-share-link');
    expect(bodies('api/filebrowser/shares', 'POST')[0].expiresAt).toBe(0);
    expect(screen.getByTestId('fb-share-reach').textContent).toContain('当前设置为分享链接仅限局域网');
  });
});

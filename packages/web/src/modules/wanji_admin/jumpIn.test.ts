import { describe, expect, it, vi } from 'vitest';
import { jumpIn, type TabLike } from './jumpIn';

function fakeTab() {
  const tab: TabLike & { close: ReturnType<typeof vi.fn<() => void>> } = {
    opener: {},
    location: { href: 'about:blank' },
    close: vi.fn<() => void>(),
  };
  return tab;
}

describe('jump-in', () => {
  it('opens the tab before the link is asked for, cuts its opener, then navigates it', async () => {
    const tab = fakeTab();
    const open = vi.fn(() => tab);
    let answer: (url: string) => void = () => {};
    const link = vi.fn(() => new Promise<string>((r) => (answer = r)));
    const outcome = jumpIn(link, open);
    // Synchronously, inside the click: the tab exists already, blank, without an opener.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe('about:blank');
    answer('https://b.example:16601/#/login?ticket=abc');
    expect(await outcome).toEqual({ ok: true });
    expect(tab.location.href).toBe('https://b.example:16601/#/login?ticket=abc');
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('closes the tab when the link cannot be had', async () => {
    const tab = fakeTab();
    const failure = new Error('remote refused');
    const outcome = await jumpIn(
      () => Promise.reject(failure),
      () => tab,
    );
    expect(outcome).toEqual({ ok: false, error: failure });
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(tab.location.href).toBe('about:blank');
  });

  it('a blocked popup hands the link back for the user to click', async () => {
    const outcome = await jumpIn(
      async () => 'https://b/#/login?ticket=x',
      () => null,
    );
    expect(outcome).toEqual({ ok: false, blocked: true, url: 'https://b/#/login?ticket=x' });
  });
});

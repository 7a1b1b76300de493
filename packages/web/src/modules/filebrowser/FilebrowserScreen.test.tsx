import type { FilebrowserEntry, FilebrowserListResponse, FilebrowserRootView } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zhCN from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import FilebrowserScreen from './FilebrowserScreen';
import { type UploadRequest, uploadQueue } from './uploads';

let net: FakeFetch;

const entry = (name: string, patch: Partial<FilebrowserEntry> = {}): FilebrowserEntry => ({
  name,
  kind: 'file',
  size: 1234,
  mtimeMs: Date.UTC(2026, 0, 2, 3, 4, 5),
  type: 'text',
  etag: `e-${name}`,
  ...patch,
});
const roots: FilebrowserRootView[] = [
  { key: 'S1', name: 'Disk', kind: 'local', readOnly: false },
  { key: 'S2', name: 'Backup', kind: 'local', readOnly: false },
];

/** Folders by `storage:path`; every listing answers from here. */
let folders: Record<string, FilebrowserEntry[]>;
const bodies: Record<string, unknown[]> = {};

function serve() {
  net.route('api/filebrowser/roots', { body: { ret: 0, enabled: true, list: roots } });
  net.route('api/filebrowser/settings', { body: { ret: 0, settings: { trash: false, thumbnails: true } } });
  net.route('api/filebrowser/ticket', { body: { ret: 0, ticket: 'TK', expiresAt: Date.now() + 3_600_000 } });
  net.route('api/filebrowser/list', (url) => {
    const q = new URL(url, 'http://x/').searchParams;
    const storage = q.get('storage') ?? '';
    const path = q.get('path') ?? '/';
    const list = folders[`${storage}:${path}`];
    if (!list) return { status: 404, body: { ret: 1, code: 'storage_notFound', params: { path }, msg: 'not found' } };
    const reply: FilebrowserListResponse = {
      ret: 0,
      storage,
      path,
      readOnly: false,
      entry: entry(path, { kind: 'dir', type: 'dir' }),
      entries: list,
    };
    return { body: reply };
  });
  for (const call of ['transfer', 'delete', 'exists', 'mkdir', 'rename']) {
    bodies[call] = [];
    net.route(`api/filebrowser/${call}`, (_url, init) => {
      const body = JSON.parse(String(init.body)) as { names?: string[]; from?: { names: string[] } };
      bodies[call].push(body);
      if (call === 'exists') return { body: { ret: 0, existing: (body.names ?? []).filter((n) => n === 'a.txt') } };
      if (call === 'transfer' || call === 'delete') {
        const names = body.from?.names ?? body.names ?? [];
        return {
          body: {
            ret: 0,
            results: names.map((name, i) =>
              i === 1
                ? {
                    name,
                    result: 'failed',
                    reason: { code: 'storage_denied', params: { path: `/${name}` }, text: 'x' },
                  }
                : { name, result: 'done' },
            ),
          },
        };
      }
      return { body: { ret: 0 } };
    });
  }
}

// The virtualiser measures its scroll box; jsdom lays nothing out, so the box says 600 × 800.
let saved: PropertyDescriptor[] = [];
beforeAll(() => {
  saved = ['clientHeight', 'clientWidth'].map(
    (k) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, k) as PropertyDescriptor,
  );
  for (const [k, size] of [
    ['clientHeight', 600],
    ['clientWidth', 800],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, k, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('fb-scroll') ? size : 0;
      },
    });
  }
});
afterAll(() => {
  ['clientHeight', 'clientWidth'].forEach((k, i) => {
    if (saved[i]) Object.defineProperty(HTMLElement.prototype, k, saved[i]);
  });
});

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  folders = {
    'S1:/': [
      entry('docs', { kind: 'dir', type: 'dir', size: 0 }),
      entry('a.txt', { size: 1234 }),
      entry('b.jpg', { type: 'image', size: 2_500_000 }),
      entry('c.txt', { size: 10 }),
    ],
    'S1:/docs': [entry('inner.md')],
    'S2:/': [entry('a.txt')],
  };
  serve();
});
afterEach(() => vi.unstubAllGlobals());

const names = () => screen.getAllByTestId('filebrowser-row').map((r) => r.dataset.name);
const row = (name: string) =>
  screen.getAllByTestId('filebrowser-row').find((r) => r.dataset.name === name) as HTMLElement;
const surface = () => screen.getByTestId('fb-surface');

describe('file manager screen', () => {
  it('opens the first storage, lists with spec sizes, sorts, and walks folders through the router', async () => {
    const { router } = renderWithProviders(<FilebrowserScreen />, { path: '/filebrowser' });
    await waitFor(() => expect(names()).toEqual(['docs', 'a.txt', 'b.jpg', 'c.txt']));
    expect(router.state.location.search).toContain('storage=S1');
    expect(row('b.jpg').textContent).toContain('2.5 MB');
    expect(row('a.txt').textContent).toContain('1.23 KB');
    fireEvent.click(screen.getByTestId('fb-sort-size'));
    expect(names()).toEqual(['docs', 'b.jpg', 'a.txt', 'c.txt']);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'c.' } });
    expect(names()).toEqual(['c.txt']);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } });

    fireEvent.doubleClick(row('docs'));
    await waitFor(() => expect(names()).toEqual(['inner.md']));
    expect(new URLSearchParams(router.state.location.search).get('path')).toBe('/docs');
    expect(screen.getByTestId('fb-crumbs').textContent).toContain('docs');
    // Backspace goes up; the router's back goes to the folder again.
    surface().focus();
    fireEvent.keyDown(surface(), { key: 'Backspace' });
    await waitFor(() => expect(names()).toContain('b.jpg'));
    await router.navigate(-1);
    await waitFor(() => expect(names()).toEqual(['inner.md']));
  });

  it('selects with clicks and keys, deletes after asking and shows each failure', async () => {
    renderWithProviders(<FilebrowserScreen />, { path: '/filebrowser?storage=S1&path=/' });
    await waitFor(() => expect(names()).toHaveLength(4));
    fireEvent.click(row('a.txt'));
    fireEvent.click(row('c.txt'), { shiftKey: true });
    expect(screen.getByTestId('fb-status').textContent).toContain('已选 3 项');
    fireEvent.click(row('b.jpg'), { ctrlKey: true });
    expect(screen.getByTestId('fb-status').textContent).toContain('已选 2 项');
    fireEvent.keyDown(surface(), { key: 'Escape' });
    expect(screen.getByTestId('fb-status').textContent).not.toContain('已选');
    fireEvent.keyDown(surface(), { key: 'a', ctrlKey: true });
    expect(screen.getByTestId('fb-status').textContent).toContain('已选 4 项');
    fireEvent.keyDown(surface(), { key: 'ArrowDown' });
    expect(screen.getByTestId('fb-status').textContent).toContain('已选 1 项');

    fireEvent.keyDown(surface(), { key: 'a', ctrlKey: true });
    fireEvent.keyDown(surface(), { key: 'Delete' });
    fireEvent.click(await screen.findByTestId('fb-delete-ok'));
    await waitFor(() => expect(bodies.delete).toHaveLength(1));
    expect(bodies.delete[0]).toEqual({ storage: 'S1', dir: '/', names: ['docs', 'a.txt', 'b.jpg', 'c.txt'] });
    // The second name failed: its line says why, in the user's language.
    expect((await screen.findByTestId('fb-failures')).textContent).toContain(
      `a.txt: ${zhCN.filebrowser.err_storage_denied.replace('{{path}}', '/a.txt')}`,
    );
  });

  it('keeps the clipboard across storages, asks once about taken names, and pastes with the answer', async () => {
    const { router } = renderWithProviders(<FilebrowserScreen />, { path: '/filebrowser?storage=S1&path=/' });
    await waitFor(() => expect(names()).toHaveLength(4));
    fireEvent.click(row('a.txt'));
    fireEvent.click(row('c.txt'), { ctrlKey: true });
    fireEvent.keyDown(surface(), { key: 'x', ctrlKey: true });
    expect(screen.getByTestId('fb-status').textContent).toContain('剪贴板：2 项待移动');

    await router.navigate('/filebrowser?storage=S2&path=/');
    await waitFor(() => expect(names()).toEqual(['a.txt']));
    expect(screen.getByTestId('fb-status').textContent).toContain('剪贴板：2 项待移动');
    fireEvent.keyDown(surface(), { key: 'v', ctrlKey: true });
    const ask = await screen.findByTestId('fb-conflict-replace');
    expect(document.body.textContent).toContain('1 个名称已存在');
    fireEvent.click(ask);
    await waitFor(() => expect(bodies.transfer).toHaveLength(1));
    expect(bodies.exists[0]).toEqual({ storage: 'S2', dir: '/', names: ['a.txt', 'c.txt'] });
    expect(bodies.transfer[0]).toEqual({
      op: 'move',
      from: { storage: 'S1', dir: '/', names: ['a.txt', 'c.txt'] },
      to: { storage: 'S2', dir: '/' },
      conflict: 'replace',
    });
    expect((await screen.findByTestId('fb-failures')).textContent).toContain('c.txt');
    // A move empties the clipboard.
    await waitFor(() => expect(screen.getByTestId('fb-status').textContent).not.toContain('剪贴板'));
  });

  it('renders a window of a 10,000-entry folder, and its grid asks for thumbnails with the ticket', async () => {
    folders['S1:/'] = Array.from({ length: 10_000 }, (_, i) =>
      entry(`img${String(i).padStart(5, '0')}.jpg`, { type: 'image' }),
    );
    renderWithProviders(<FilebrowserScreen />, { path: '/filebrowser?storage=S1&path=/' });
    await waitFor(() => expect(screen.getByTestId('fb-status').textContent).toContain('10000 项'));
    const shown = screen.getAllByTestId('filebrowser-row').length;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(60);
    // Scrolled to the end, the window holds the last rows and not the first.
    const scroller = screen.getByTestId('fb-scroll');
    scroller.scrollTop = 10_000 * 40 - 600;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(names()).toContain('img09999.jpg'));
    expect(names()).not.toContain('img00000.jpg');

    fireEvent.click(within(screen.getByTestId('fb-view')).getAllByRole('radio')[1]);
    const img = await waitFor(() => {
      const i = screen.getByTestId('fb-grid').querySelector('img');
      if (!i) throw new Error('no thumbnail yet');
      return i;
    });
    expect(img.getAttribute('loading')).toBe('lazy');
    const src = new URL(img.getAttribute('src') ?? '', 'http://x/');
    expect(src.pathname).toBe('/api/filebrowser/thumb');
    expect(src.searchParams.get('ticket')).toBe('TK');
    expect(screen.getByTestId('fb-grid').querySelectorAll('[data-testid=fb-tile]').length).toBeLessThan(200);
  });

  it('makes a folder through the name dialog and refuses a slash before calling', async () => {
    renderWithProviders(<FilebrowserScreen />, { path: '/filebrowser?storage=S1&path=/' });
    await waitFor(() => expect(names()).toHaveLength(4));
    fireEvent.click(screen.getByTestId('fb-act-newFolder'));
    const input = await screen.findByTestId('fb-name-input');
    expect((input as HTMLInputElement).value).toBe('新建文件夹');
    fireEvent.change(input, { target: { value: 'x/y' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(await screen.findByText(zhCN.filebrowser.err_nameInvalid)).toBeDefined();
    expect(bodies.mkdir).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'photos' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    await waitFor(() => expect(bodies.mkdir).toEqual([{ storage: 'S1', dir: '/', name: 'photos' }]));
  });

  it('asks once about taken names before uploading, and leaves the skipped ones out of the queue', async () => {
    const queued: UploadRequest[] = [];
    const add = vi.spyOn(uploadQueue, 'add').mockImplementation((reqs) => void queued.push(...reqs));
    try {
      renderWithProviders(<FilebrowserScreen />, { path: '/filebrowser?storage=S1&path=/docs' });
      await waitFor(() => expect(names()).toEqual(['inner.md']));
      const files = [new File(['x'], 'a.txt'), new File(['yy'], 'new.txt')];
      fireEvent.change(screen.getByTestId('fb-input-files'), { target: { files } });
      fireEvent.click(await screen.findByTestId('fb-conflict-skip'));
      await waitFor(() => expect(queued).toHaveLength(1));
      expect(bodies.exists[0]).toEqual({ storage: 'S1', dir: '/docs', names: ['a.txt', 'new.txt'] });
      expect(queued[0]).toMatchObject({ storage: 'S1', dir: '/docs', relativePath: 'new.txt', conflict: 'skip' });
      expect(queued[0].file.size).toBe(2);
    } finally {
      add.mockRestore();
    }
  });
});

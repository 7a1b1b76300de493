import { FILEBROWSER_LIMITS, type FilebrowserEntry } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { confirmDialog } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { PreviewModal } from './PreviewModal';

let net: FakeFetch;
// No pause between typed keys: the tests wait on the page, not on time.
const user = userEvent.setup({ delay: null });

const file = (name: string, type: FilebrowserEntry['type'], size = 10): FilebrowserEntry => ({
  name,
  kind: 'file',
  size,
  mtimeMs: 0,
  type,
  etag: `"${name}-listed"`,
});
const ENTRIES = [
  { ...file('sub', 'dir'), kind: 'dir' as const },
  file('notes.md', 'text'),
  file('a.jpg', 'image'),
  file('b.png', 'image'),
  file('clip.mp4', 'video'),
  file('c.gif', 'image'),
  file('song.mp3', 'audio'),
  file('doc.pdf', 'pdf'),
  file('data.bin', 'other'),
  file('conf.json', 'text'),
];
const at = (name: string) => ENTRIES.findIndex((e) => e.name === name);

function open(name: string, onSaved = vi.fn(), onClose = vi.fn()) {
  renderWithProviders(
    <PreviewModal
      storage="S1"
      dir="/photos"
      entries={ENTRIES}
      index={at(name)}
      ticket="TK"
      onClose={onClose}
      onSaved={onSaved}
    />,
  );
  return { onSaved, onClose };
}

/** The query of a URL the preview put into the page (relative, like the app's). */
const queryOf = (url: string | null) => new URL(url ?? '', 'http://console/').searchParams;
const fileCalls = () =>
  net.fn.mock.calls.filter(([url]) => String(url).startsWith('api/filebrowser/file?')) as [string, RequestInit][];
const textPosts = () =>
  net.fn.mock.calls
    .filter(([url]) => String(url).startsWith('api/filebrowser/text?'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

/** The file read answers these texts in turn, each a new version. */
function serveTexts(...texts: string[]) {
  let n = 0;
  net.route('api/filebrowser/file', () => {
    const i = Math.min(n++, texts.length - 1);
    return { body: texts[i], headers: { 'Content-Type': 'text/plain', ETag: `"v${i + 1}"` } };
  });
}

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 'tok');
});
afterEach(() => vi.unstubAllGlobals());

describe('PreviewModal', () => {
  it('an image opens in a gallery of the folder’s images: buttons, arrow keys, fit / 100 %', async () => {
    open('b.png');
    const img = await screen.findByTestId('fb-gallery-image');
    const src = () => queryOf(screen.getByTestId('fb-gallery-image').getAttribute('src'));
    expect(src().get('path')).toBe('/photos/b.png');
    expect(src().get('storage')).toBe('S1');
    expect(src().get('ticket')).toBe('TK');
    expect(img.getAttribute('alt')).toBe('b.png');
    // Three images among ten entries: b.png is the second.
    expect(screen.getByTestId('fb-gallery-position').textContent).toBe('2 / 3');

    await user.click(screen.getByTestId('fb-gallery-next'));
    expect(src().get('path')).toBe('/photos/c.gif');
    expect((screen.getByTestId('fb-gallery-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(src().get('path')).toBe('/photos/a.jpg');
    expect((screen.getByTestId('fb-gallery-prev') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(src().get('path')).toBe('/photos/b.png');
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('b.png');

    const stage = () => screen.getByTestId('fb-gallery-image').parentElement as HTMLElement;
    expect(stage().classList.contains('fb-gallery-actual')).toBe(false);
    await user.click(screen.getByTestId('fb-gallery-zoom'));
    expect(stage().classList.contains('fb-gallery-actual')).toBe(true);
    expect(screen.getByTestId('fb-gallery-zoom').getAttribute('aria-pressed')).toBe('true');
    // The download is the same file as an attachment.
    const dl = queryOf(screen.getByTestId('fb-preview-download').getAttribute('href'));
    expect([dl.get('path'), dl.get('download'), dl.get('ticket')]).toEqual(['/photos/b.png', '1', 'TK']);
    expect(fileCalls()).toEqual([]);
  });

  it('a video plays from the ticketed file URL', async () => {
    open('clip.mp4');
    const video = await screen.findByTestId('fb-preview-video');
    expect(video.tagName).toBe('VIDEO');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(queryOf(video.getAttribute('src')).get('path')).toBe('/photos/clip.mp4');
    expect(queryOf(video.getAttribute('src')).get('ticket')).toBe('TK');
    expect(queryOf(video.getAttribute('src')).get('download')).toBeNull();
  });

  it('audio plays from the ticketed file URL', async () => {
    open('song.mp3');
    const audio = await screen.findByTestId('fb-preview-audio');
    expect(audio.tagName).toBe('AUDIO');
    expect(queryOf(audio.getAttribute('src')).get('path')).toBe('/photos/song.mp3');
  });

  it('a PDF shows in the browser’s viewer', async () => {
    open('doc.pdf');
    const frame = await screen.findByTestId('fb-preview-pdf');
    expect(frame.tagName).toBe('IFRAME');
    expect(queryOf(frame.getAttribute('src')).get('path')).toBe('/photos/doc.pdf');
  });

  it('a file without a preview is a download', async () => {
    open('data.bin');
    const other = await screen.findByTestId('fb-preview-other');
    const href = within(other).getByTestId('fb-preview-download').getAttribute('href');
    expect(queryOf(href).get('path')).toBe('/photos/data.bin');
    expect(queryOf(href).get('download')).toBe('1');
    expect(fileCalls()).toEqual([]);
  });

  it('text is read with the session token, coloured by its grammar, markdown shown as source', async () => {
    serveTexts('# Title\n\n<b>bold</b> and <script>alert(1)</script>\n');
    open('notes.md');
    const code = await screen.findByTestId('fb-text-highlighted');
    const [url, init] = fileCalls()[0];
    expect((init.headers as Record<string, string>).Authorization).toBe('tok');
    expect(queryOf(url).get('ticket')).toBeNull();
    expect(queryOf(url).get('path')).toBe('/photos/notes.md');
    // The markup is text, not elements: only highlight.js's spans are in the page.
    expect(code.textContent).toBe('# Title\n\n<b>bold</b> and <script>alert(1)</script>\n');
    expect(code.querySelector('b, script')).toBeNull();
    expect(code.querySelector('.hljs-section')?.textContent).toBe('# Title');
  });

  it('JSON is coloured with its own grammar', async () => {
    serveTexts('{"a": 1}');
    open('conf.json');
    const code = await screen.findByTestId('fb-text-highlighted');
    expect(code.querySelector('.hljs-attr')?.textContent).toBe('"a"');
    expect(code.querySelector('.hljs-number')?.textContent).toBe('1');
  });

  it('a text without a grammar here stays plain; a failed read says why in the UI language', async () => {
    serveTexts('just words');
    const entries = [file('readme.txt', 'text'), file('gone.txt', 'text')];
    const view = renderWithProviders(
      <PreviewModal storage="S1" dir="/" entries={entries} index={0} ticket="TK" onClose={vi.fn()} onSaved={vi.fn()} />,
    );
    expect((await screen.findByTestId('fb-text-plain')).textContent).toBe('just words');
    expect(screen.queryByTestId('fb-text-highlighted')).toBeNull();
    view.unmount();

    net.route('api/filebrowser/file', {
      status: 404,
      body: { ret: 1, code: 'storage_notFound', params: { path: '/gone.txt' }, msg: 'not found: /gone.txt' },
    });
    renderWithProviders(
      <PreviewModal storage="S1" dir="/" entries={entries} index={1} ticket="TK" onClose={vi.fn()} onSaved={vi.fn()} />,
    );
    const failed = await screen.findByTestId('fb-preview-failed');
    expect(failed.textContent).toContain('/gone.txt');
    expect(failed.textContent).not.toContain('not found');
  });

  it('a text larger than the edit limit is not read: a note and a download', async () => {
    const big = { ...file('huge.log', 'text'), size: FILEBROWSER_LIMITS.editBytes.max + 1 };
    renderWithProviders(
      <PreviewModal storage="S1" dir="/" entries={[big]} index={0} ticket="TK" onClose={vi.fn()} onSaved={vi.fn()} />,
    );
    const note = await screen.findByTestId('fb-preview-too-big');
    expect(note.textContent).toContain(String(FILEBROWSER_LIMITS.editBytes.max));
    expect(queryOf(within(note).getByTestId('fb-preview-download').getAttribute('href')).get('path')).toBe('/huge.log');
    expect(fileCalls()).toEqual([]);
  });

  it('the editor: Tab puts spaces in, Ctrl+S saves with the version read, the view shows the saved text', async () => {
    serveTexts('line\n');
    net.route('api/filebrowser/text', { body: { ret: 0, entry: { ...file('notes.md', 'text'), etag: '"v2"' } } });
    const { onSaved } = open('notes.md');
    await user.click(await screen.findByTestId('fb-text-edit'));
    const area = screen.getByTestId('fb-editor-area') as HTMLTextAreaElement;
    expect(area.value).toBe('line\n');
    area.focus();
    area.setSelectionRange(2, 2);
    fireEvent.keyDown(area, { key: 'Tab' });
    expect(area.value).toBe('li  ne\n');
    // The caret stays after the spaces, and the focus in the editor.
    expect(area.selectionStart).toBe(4);
    expect(document.activeElement).toBe(area);
    fireEvent.keyDown(area, { key: 's', ctrlKey: true });
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(textPosts()).toEqual([
      { storage: 'S1', path: '/photos/notes.md', content: 'li  ne\n', mode: 'replace', etag: '"v1"' },
    ]);
    // Back in the view with the saved text; a second save would send the new version.
    expect((await screen.findByTestId('fb-text-highlighted')).textContent).toBe('li  ne\n');
    await user.click(screen.getByTestId('fb-text-edit'));
    await user.click(screen.getByTestId('fb-editor-save'));
    await waitFor(() => expect(textPosts()).toHaveLength(2));
    expect(textPosts()[1].etag).toBe('"v2"');
  });

  it('a file changed on disk meanwhile: the edits stay, “save as” writes a new file', async () => {
    serveTexts('old\n');
    net.route('api/filebrowser/text', (_url, init) =>
      JSON.parse(String(init.body)).mode === 'replace'
        ? {
            status: 409,
            body: { ret: 1, code: 'changedOnDisk', field: 'etag', params: {}, msg: 'the file changed' },
          }
        : { body: { ret: 0, entry: file('x', 'text') } },
    );
    const { onSaved } = open('notes.md');
    await user.click(await screen.findByTestId('fb-text-edit'));
    const area = screen.getByTestId('fb-editor-area') as HTMLTextAreaElement;
    await user.type(area, 'mine');
    await user.click(screen.getByTestId('fb-editor-save'));
    const conflict = await screen.findByTestId('fb-editor-conflict');
    expect(conflict.textContent).toContain('文件在打开后已被修改');
    expect(area.value).toBe('old\nmine');
    expect(onSaved).not.toHaveBeenCalled();

    await user.click(within(conflict).getByTestId('fb-editor-save-as'));
    const name = screen.getByTestId('fb-editor-save-as-name') as HTMLInputElement;
    expect(name.value).toBe('notes (修改).md');
    await user.click(screen.getByTestId('fb-editor-save-as-ok'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(textPosts()[1]).toEqual({
      storage: 'S1',
      path: '/photos/notes (修改).md',
      content: 'old\nmine',
      mode: 'create',
    });
  });

  it('a file changed on disk meanwhile: “reload” drops the edits and reads the new version', async () => {
    serveTexts('old\n', 'theirs\n');
    net.route('api/filebrowser/text', {
      status: 409,
      body: { ret: 1, code: 'changedOnDisk', field: 'etag', params: {}, msg: 'the file changed' },
    });
    open('notes.md');
    await user.click(await screen.findByTestId('fb-text-edit'));
    await user.type(screen.getByTestId('fb-editor-area'), 'mine');
    await user.click(screen.getByTestId('fb-editor-save'));
    await user.click(await screen.findByTestId('fb-editor-reload'));
    expect((await screen.findByTestId('fb-text-highlighted')).textContent).toBe('theirs\n');
    expect(fileCalls()).toHaveLength(2);
  });

  it('closing with unsaved edits asks first', async () => {
    serveTexts('old\n');
    const { onClose } = open('notes.md');
    await user.click(await screen.findByTestId('fb-text-edit'));
    await user.type(screen.getByTestId('fb-editor-area'), 'x');
    await user.click(document.querySelector('.ant-modal-close') as HTMLElement);
    const dialog = await confirmDialog();
    expect(dialog.getAllByText('放弃未保存的修改？').length).toBeGreaterThan(0);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(dialog.getByRole('button', { name: '放弃' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('closing without edits closes at once', async () => {
    serveTexts('old\n');
    const { onClose } = open('notes.md');
    await screen.findByTestId('fb-text-highlighted');
    await user.click(document.querySelector('.ant-modal-close') as HTMLElement);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('PreviewModal on a phone', () => {
  const width = window.innerWidth;
  afterEach(() => {
    window.innerWidth = width;
  });

  it('takes the whole window', async () => {
    window.innerWidth = 390;
    open('a.jpg');
    await screen.findByTestId('fb-gallery-image');
    const dialog = document.querySelector('.ant-modal') as HTMLElement;
    expect(dialog.classList.contains('dialog-full')).toBe(true);
    expect(dialog.style.width).toBe('100vw');
  });
});

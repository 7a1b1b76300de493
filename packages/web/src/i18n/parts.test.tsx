// The locale parts: the build's split, the login page's namespaces, and the shell's wait for the rest.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../api/client';
import { setItem } from '../api/storage';
import Shell from '../app/shell/Shell';
import { installFakeFetch } from '../test/fakeFetch';
import { renderWithProviders } from '../test/render';
import enUS from './en_US.json';
import { loadRestMessages, restMessagesLoaded } from './index';
import { LOGIN_NAMESPACES, localePart } from './parts';
import zhCN from './zh_CN.json';

const SRC = path.join(__dirname, '..');

function StatusTitle() {
  const { t } = useTranslation();
  return <div data-testid="page">{t('status.title')}</div>;
}

/** Every `.ts`/`.tsx` file under `dir` (tests left out), or the file itself. */
function sources(rel: string): string[] {
  const full = path.join(SRC, rel);
  if (/\.tsx?$/.test(full)) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(full, f));
}

describe('locale parts', () => {
  it('every namespace is in exactly one part, the same in both languages', () => {
    for (const all of [zhCN, enUS] as Record<string, unknown>[]) {
      const login = localePart(all, 'login');
      const rest = localePart(all, 'rest');
      expect(Object.keys(login).sort()).toEqual([...LOGIN_NAMESPACES].sort());
      expect({ ...login, ...rest }).toEqual(all);
      expect(Object.keys(login).filter((ns) => ns in rest)).toEqual([]);
    }
  });

  it('the login page and the frame around it use only the login part’s namespaces', () => {
    // What renders at /login: the login screen, the shell (top bar, language and theme switches),
    // the page title, and the coded-error wording the login screen uses.
    const files = [
      ...sources('screens/login'),
      ...sources('app/shell'),
      ...sources('app/title.ts'),
      ...sources('components/CopyButton.tsx'),
      ...sources('api/client.ts'),
      ...sources('api/callErrors.ts'),
    ];
    expect(files.length).toBeGreaterThan(5);
    const used = new Map<string, string>();
    for (const f of files)
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*['`]([a-zA-Z_]+)\./g))
        used.set(m[1], path.relative(SRC, f));
    expect(used.size).toBeGreaterThan(2);
    expect([...used].filter(([ns]) => !LOGIN_NAMESPACES.includes(ns))).toEqual([]);
  });
});

describe('the shell before the rest of the messages', () => {
  const lang = 'zh_CN';
  beforeEach(() => {
    installFakeFetch().route('api/modules/list', {
      body: { ret: 0, Modules: [], u: { account: 'admin', passwordIsDefault: false, twoFAEnable: false } },
    });
    resetClient();
    setItem('token', 't');
    // The page as it starts: only the login part loaded.
    i18next.removeResourceBundle(lang, 'translation');
    i18next.addResourceBundle(lang, 'translation', localePart(zhCN as Record<string, unknown>, 'login'));
  });
  afterEach(() => {
    i18next.addResourceBundle(lang, 'translation', zhCN, true, true);
    vi.restoreAllMocks();
  });

  it('waits for the rest, then renders the signed-in page with it', async () => {
    expect(restMessagesLoaded()).toBe(false);
    renderWithProviders(null, {
      path: '/status',
      routes: [
        {
          path: '/',
          element: <Shell />,
          children: [{ path: 'status', element: <StatusTitle /> }],
        },
      ],
    });
    // The built part (the same plugin as the page build) arrives and the screen renders in Chinese.
    expect((await screen.findByTestId('page')).textContent).toBe(zhCN.status.title);
    expect(restMessagesLoaded()).toBe(true);
    expect(i18next.t('wol.ui_addDevice')).toBe(zhCN.wol.ui_addDevice);
    await loadRestMessages();
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getItem, setItem } from '../api/storage';
import { renderWithProviders } from '../test/render';
import { ThemeSwitch } from './shell/ThemeSwitch';

/** A system that prefers dark (or not), for the next render. */
function systemPrefersDark(dark: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: dark && query.includes('dark'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  delete document.documentElement.dataset.theme;
});

const switchEl = () => screen.getByTestId('theme-switch');

describe('theme', () => {
  it('follows the system when nothing is chosen', async () => {
    systemPrefersDark(true);
    renderWithProviders(<ThemeSwitch />);
    await waitFor(() => expect(switchEl().getAttribute('aria-pressed')).toBe('true'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(getItem('theme')).toBeUndefined();
  });

  it('a choice wins over the system and is kept in the one local-storage record', async () => {
    systemPrefersDark(true);
    setItem('theme', 'light');
    renderWithProviders(<ThemeSwitch />);
    await waitFor(() => expect(switchEl().getAttribute('aria-pressed')).toBe('false'));
    expect(document.documentElement.dataset.theme).toBe('light');
    await userEvent.click(switchEl());
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(JSON.parse(window.localStorage.getItem('lucky') ?? '{}').theme).toBe('dark');
  });
});

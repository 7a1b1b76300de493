// Light or dark colours (product brief: dark theme). The user's choice is kept in the one
// local-storage record (`theme`); without a choice the console follows the system's
// `prefers-color-scheme`, also when it changes while the page is open.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { getItem, setItem } from '../api/storage';

export type ThemeMode = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function systemTheme(): ThemeMode {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

interface ThemeState {
  mode: ThemeMode;
  /** Chooses (and remembers) a mode. */
  setMode: (mode: ThemeMode) => void;
}

const ThemeContext = createContext<ThemeState>({ mode: 'light', setMode: () => {} });

export function ThemeModeProvider({ children }: { children: (mode: ThemeMode) => ReactNode }) {
  const [chosen, setChosen] = useState<ThemeMode | undefined>(() => {
    const stored = getItem('theme');
    return stored === 'dark' || stored === 'light' ? stored : undefined;
  });
  const [system, setSystem] = useState<ThemeMode>(systemTheme);

  useEffect(() => {
    if (chosen || typeof window.matchMedia !== 'function') return;
    const media = window.matchMedia(DARK_QUERY);
    const onChange = () => setSystem(media.matches ? 'dark' : 'light');
    media.addEventListener?.('change', onChange);
    return () => media.removeEventListener?.('change', onChange);
  }, [chosen]);

  const mode = chosen ?? system;
  const setMode = useCallback((next: ThemeMode) => {
    setItem('theme', next);
    setChosen(next);
  }, []);
  const value = useMemo(() => ({ mode, setMode }), [mode, setMode]);
  return <ThemeContext.Provider value={value}>{children(mode)}</ThemeContext.Provider>;
}

export const useThemeMode = () => useContext(ThemeContext);

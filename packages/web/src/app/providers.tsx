// Context every screen relies on: server-state cache, UI kit configuration
// (locale, size "small", layer level 3000, light or dark colours) and the client's notice hooks.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { configureClient } from '../api/client';
import { type ThemeMode, ThemeModeProvider } from './theme';

/** Spec §9: "layer level 3000" — the base z-index of dialogs, popups and messages. */
export const LAYER_BASE = 3000;
const BRAND_GREEN = '#2f9e44';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The request client counts consecutive failures itself; retries would skew that count.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Routes the client's notices through antd's context-aware message API. */
function ClientBridge() {
  const { message } = AntApp.useApp();
  const { t } = useTranslation();
  useEffect(() => {
    configureClient({
      notify: (level, text, durationMs) =>
        // Keyed by text: the same error from a polling screen is shown once, not stacked.
        void message.open({
          type: level,
          content: text,
          key: `${level}:${text}`,
          duration: durationMs ? durationMs / 1000 : undefined,
        }),
      t: (key, vars) => t(key, vars),
    });
  }, [message, t]);
  return null;
}

export interface ProvidersProps {
  antdLocale?: Locale;
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * The page outside the UI kit's own elements follows the theme too: the body behind the layout
 * (seen when scrolling past an end), native controls and scroll bars (`color-scheme`), and
 * `data-theme` for the few rules that need it.
 */
function DocumentTheme({ mode }: { mode: ThemeMode }) {
  const { token } = theme.useToken();
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    root.style.colorScheme = mode;
    document.body.style.backgroundColor = token.colorBgLayout;
  }, [mode, token.colorBgLayout]);
  return null;
}

export function Providers({ antdLocale, queryClient, children }: ProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        {(mode) => (
          <ConfigProvider
            locale={antdLocale}
            componentSize="small"
            // antd spaces out two-character Chinese labels ("确 定"); the spec's text is "确定".
            button={{ autoInsertSpace: false }}
            theme={{
              algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
              token: {
                zIndexPopupBase: LAYER_BASE,
                colorPrimary: BRAND_GREEN,
                colorLink: BRAND_GREEN,
                borderRadius: 4,
              },
            }}
          >
            <DocumentTheme mode={mode} />
            <AntApp>
              <ClientBridge />
              {children}
            </AntApp>
          </ConfigProvider>
        )}
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}

// Renders UI inside the providers the app uses (query cache, antd, i18n, router).
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import type { ReactElement } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { Providers } from '../app/providers';

export interface RenderOptions {
  path?: string;
  /** Full route table; defaults to one catch-all route showing `ui`. */
  routes?: RouteObject[];
}

export function renderWithProviders(ui: ReactElement | null, { path = '/', routes }: RenderOptions = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(routes ?? [{ path: '*', element: ui }], { initialEntries: [path] });
  const result = render(
    // No antd motion in tests: jsdom fires no transitionend, so a closed dialog, drawer, popup or
    // message would stay in the page until rc-motion's deadline (a second copy of its buttons and
    // fields for the queries meanwhile), and every motion step is one more render. Outside the
    // app's providers, so the App holders (modal.confirm, message) get it too.
    <ConfigProvider theme={{ token: { motion: false } }}>
      <Providers queryClient={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </ConfigProvider>,
  );
  return { ...result, router, queryClient };
}

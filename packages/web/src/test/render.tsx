// Renders UI inside the providers the app uses (query cache, antd, i18n, router).
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
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
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient };
}

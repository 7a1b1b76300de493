// The route table (spec §2). Every screen is its own chunk, loaded on demand.
import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { moduleRoutes } from './moduleScreens';
import { NotFound } from './shell/NotFound';
import Shell from './shell/Shell';
import type { RouteHandle } from './title';

const LoginScreen = lazy(() => import('../screens/login/LoginScreen'));
const AboutScreen = lazy(() => import('../screens/about/AboutScreen'));
const SetScreen = lazy(() => import('../screens/set/SetScreen'));
const SafeScreen = lazy(() => import('../screens/safe/SafeScreen'));
const StatusScreen = lazy(() => import('../screens/status/StatusScreen'));

const handle = (titleKey?: string): RouteHandle => (titleKey ? { titleKey } : {});

export function buildRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to="/about" replace /> },
        // Only the login route has a title among the core screens (spec §2).
        { path: 'login', element: <LoginScreen />, handle: handle('title.login') },
        { path: 'about', element: <AboutScreen /> },
        { path: 'set', element: <SetScreen /> },
        { path: 'safe', element: <SafeScreen /> },
        { path: 'status', element: <StatusScreen /> },
        ...moduleRoutes().map(({ path, titleKey, screen: Screen }) => ({
          path,
          element: <Screen />,
          handle: handle(titleKey),
        })),
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}

// What the share dialog's and the shares panel's tests both need: a share as the server reads it,
// the JSON bodies the fake network received, and a fake network per test.
import type { FilebrowserShareView } from '@lucky/shared';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';

/** A share view (a file, no password, no limits), with `patch` over it. */
export const share = (patch: Partial<FilebrowserShareView> = {}): FilebrowserShareView => ({
  key: 'K1',
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: '/s/AAAAAAAAAAAAAAAAAAAAAA',
  storage: 'S1',
  storageName: 'Disk',
  path: '/photos/a.jpg',
  kind: 'file',
  enabled: true,
  password: '',
  expiresAt: 0,
  maxDownloads: 0,
  downloads: 0,
  lastAccessAt: 0,
  note: '',
  createdAt: 1,
  state: 'active',
  ...patch,
});

/** A fake network installed before each test (signed in), removed after; `net()` is the current one. */
export function fakeNetworkPerTest(): {
  net: () => FakeFetch;
  bodies: (path: string, method: string) => Record<string, unknown>[];
} {
  let current: FakeFetch;
  beforeEach(() => {
    current = installFakeFetch();
    resetClient();
    setItem('token', 'tok');
  });
  afterEach(() => vi.unstubAllGlobals());
  return {
    net: () => current,
    /** The JSON bodies sent to `path` with `method`, in order. */
    bodies: (path, method) =>
      current.fn.mock.calls
        .filter(([url, init]) => String(url).split('?')[0] === path && (init as RequestInit).method === method)
        .map(([, init]) => JSON.parse(String((init as RequestInit).body ?? 'null')) as Record<string, unknown>),
  };
}

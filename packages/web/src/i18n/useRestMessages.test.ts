// The shell's wait for the rest of the messages: a failed fetch says so and can be tried again.
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const load = vi.fn<() => Promise<void>>();
let loaded = false;
vi.mock('./index', () => ({ loadRestMessages: () => load(), restMessagesLoaded: () => loaded }));

const { useRestMessages } = await import('./useRestMessages');

beforeEach(() => {
  load.mockReset();
  loaded = false;
});

describe('useRestMessages', () => {
  it('does not fetch on the login page, and is ready at once when everything is loaded', () => {
    const login = renderHook(() => useRestMessages(false));
    expect(login.result.current.ready).toBe(false);
    expect(load).not.toHaveBeenCalled();
    loaded = true;
    const tests = renderHook(() => useRestMessages(true));
    expect(tests.result.current.ready).toBe(true);
    expect(load).not.toHaveBeenCalled();
  });

  it('a failed fetch is reported; retry fetches again and becomes ready', async () => {
    load.mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(undefined);
    const { result } = renderHook(() => useRestMessages(true));
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(result.current.ready).toBe(false);
    act(() => result.current.retry());
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(result.current.failed).toBe(false);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

// The shell's wait for the rest of the messages (i18n/index.ts) before it renders a signed-in page.
import { useEffect, useState } from 'react';
import { loadRestMessages, restMessagesLoaded } from './index';

/** True once every namespace is loaded; starts the fetch when `needed` (not on the login page). */
export function useRestMessages(needed: boolean): { ready: boolean; failed: boolean; retry: () => void } {
  const [ready, setReady] = useState(restMessagesLoaded);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the "try again" trigger
  useEffect(() => {
    if (!needed || ready) return;
    let current = true;
    setFailed(false);
    loadRestMessages().then(
      () => current && setReady(true),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [needed, ready, attempt]);
  return { ready, failed, retry: () => setAttempt((n) => n + 1) };
}

import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

// Encoded as one string so the snapshot is stable between renders.
const snapshot = () => `${window.innerWidth}x${window.innerHeight}`;

/** The window's inner size, updated on resize. */
export function useWindowSize(): { width: number; height: number } {
  const s = useSyncExternalStore(subscribe, snapshot, () => '1280x800');
  const [w, h] = s.split('x').map(Number);
  return { width: w, height: h };
}

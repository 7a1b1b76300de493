import { INSTALL_ROOT } from '../version.js';
import { clearUpdateMarker, readUpdateMarker, rollbackRelease } from './release.js';

/**
 * Supervisor hook: a worker died before it was ready. If that happened right
 * after an update, put the previous release back and say so; the supervisor
 * then starts the old version. Imported statically by main.ts, so this code
 * is the version that was running before the swap.
 */
export async function onWorkerEarlyCrash(): Promise<boolean> {
  const marker = await readUpdateMarker(INSTALL_ROOT).catch(() => null);
  if (!marker) return false;
  try {
    const back = await rollbackRelease(INSTALL_ROOT);
    process.stderr.write(`lucky: version ${marker.to} did not start; rolled back to ${back.version}\n`);
  } catch (err) {
    process.stderr.write(`lucky: roll-back after a failed update failed: ${(err as Error).message}\n`);
    await clearUpdateMarker(INSTALL_ROOT).catch(() => undefined);
  }
  return true;
}

/** The new release is listening: it no longer needs a roll-back. */
export async function markUpdateHealthy(): Promise<void> {
  await clearUpdateMarker(INSTALL_ROOT).catch(() => undefined);
}

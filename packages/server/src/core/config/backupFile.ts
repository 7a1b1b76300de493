import type { AppConfig } from './schema.js';

/**
 * The backup file the settings' download gives (`GET /api/configure`) and scheduled tasks write:
 * the whole config, pretty-printed, named after the UTC time.
 */
export function configBackupFile(config: AppConfig, now = new Date()): { fileName: string; text: string } {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return { fileName: `lucky_${stamp}.json`, text: `${JSON.stringify(config, null, 2)}\n` };
}

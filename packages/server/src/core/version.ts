import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The product version: the root package.json's, the same file a release package carries. */
export function readVersion(): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
  try {
    return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** packages/ — where the server, web and shared builds live. */
export const PACKAGES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const INSTALL_ROOT = path.dirname(PACKAGES_DIR);

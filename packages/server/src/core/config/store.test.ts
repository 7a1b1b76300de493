import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../core.js';
import { silentLogger } from '../logs/logger.js';
import { CONFIG_FILE, ConfigStore } from './store.js';

let dir: string;
let defaults: Awaited<ReturnType<typeof defaultConfig>>;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-store-'));
  defaults ??= await defaultConfig();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});
const newStore = () => new ConfigStore(dir, async () => structuredClone(defaults), silentLogger);

describe('ConfigStore', () => {
  it('creates the file with mode 0600 and schemaVersion on first load', async () => {
    const store = newStore();
    await store.load();
    const st = await fs.stat(path.join(dir, CONFIG_FILE));
    expect(st.mode & 0o777).toBe(0o600);
    const doc = JSON.parse(await fs.readFile(path.join(dir, CONFIG_FILE), 'utf8'));
    expect(doc.schemaVersion).toBe(1);
    expect(doc.base.adminPort).toBe(16601);
    expect(store.source).toBe('defaults');
  });

  it('keeps the last five versions as backups, each 0600', async () => {
    const store = newStore();
    await store.load();
    for (let i = 0; i < 8; i++) {
      await store.update((d) => {
        d.base.logMaxSize = 2000 + i;
      });
    }
    const backups = await store.listBackups();
    expect(backups).toHaveLength(5);
    const newest = JSON.parse(await fs.readFile(backups[0], 'utf8'));
    expect(newest.base.logMaxSize).toBe(2006);
    for (const b of backups) expect((await fs.stat(b)).mode & 0o777).toBe(0o600);
  });

  it('an invalid update changes nothing on disk or in memory', async () => {
    const store = newStore();
    await store.load();
    const before = await fs.readFile(store.file, 'utf8');
    await expect(
      store.update((d) => {
        d.base.adminPort = 70000;
      }),
    ).rejects.toThrow();
    expect(store.get().base.adminPort).toBe(16601);
    expect(await fs.readFile(store.file, 'utf8')).toBe(before);
  });

  it('starts from the newest good backup when the file is corrupt, and keeps the corrupt copy', async () => {
    const store = newStore();
    await store.load();
    await store.update((d) => {
      d.base.logMaxSize = 4096;
    });
    await store.update((d) => {
      d.base.logMaxSize = 8192;
    });
    await fs.writeFile(store.file, '{"schemaVersion":1, "base": {tru');
    const again = newStore();
    const cfg = await again.load();
    expect(again.source).toBe('backup');
    expect(cfg.base.logMaxSize).toBe(4096);
    const names = await fs.readdir(dir);
    expect(names.some((n) => n.startsWith(`${CONFIG_FILE}.corrupt-`))).toBe(true);
    // and the file is readable again
    expect(JSON.parse(await fs.readFile(again.file, 'utf8')).base.logMaxSize).toBe(4096);
  });

  it('starts with defaults when the file and every backup are unreadable', async () => {
    await fs.writeFile(path.join(dir, CONFIG_FILE), 'garbage');
    const store = newStore();
    const cfg = await store.load();
    expect(store.source).toBe('defaults');
    expect(cfg.auth.passwordIsDefault).toBe(true);
  });

  it('rejects a file that is JSON but not a valid config, naming the field', async () => {
    await fs.writeFile(
      path.join(dir, CONFIG_FILE),
      JSON.stringify({ ...defaults, base: { ...defaults.base, logMaxSize: 'big' } }),
    );
    const store = newStore();
    await store.load();
    expect(store.source).toBe('defaults');
  });

  it('reads a number stored outside a (since narrowed) range as its nearest bound, not as a corrupt file', async () => {
    await fs.writeFile(
      path.join(dir, CONFIG_FILE),
      JSON.stringify({ ...defaults, base: { ...defaults.base, logMaxSize: 5, adminPort: 70000 } }),
    );
    const store = newStore();
    const cfg = await store.load();
    expect(store.source).toBe('file');
    expect(cfg.base).toMatchObject({ logMaxSize: 1024, adminPort: 65535 });
  });

  it('serialises concurrent updates', async () => {
    const store = newStore();
    await store.load();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update((d) => {
          d.auth.apiTokens.push({ id: `t${i}`, name: `n${i}`, hash: 'a'.repeat(64), createdAt: '' });
        }),
      ),
    );
    expect(store.get().auth.apiTokens).toHaveLength(20);
    const onDisk = JSON.parse(await fs.readFile(store.file, 'utf8'));
    expect(onDisk.auth.apiTokens).toHaveLength(20);
  });
});

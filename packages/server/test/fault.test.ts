import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE, ConfigStore } from '../src/core/config/store.js';
import { defaultConfig } from '../src/core/core.js';
import { silentLogger } from '../src/core/logs/logger.js';
import { startTestServer, tempDir } from './harness.js';
import { nextEvent, pause, waitFor } from './wait.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

function startSaver(dir: string): { child: ChildProcess; saves: () => number } {
  let saves = 0;
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', path.join(here, 'fixtures/save-loop.ts'), dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child.stdout?.on('data', (b: Buffer) => {
    saves += b
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('saved')).length;
  });
  return { child, saves: () => saves };
}

describe('fault tolerance', () => {
  it('kill -9 during config saves, 15 times, never leaves an unreadable config', async () => {
    const dir = await tempDir('lucky-kill-');
    dirs.push(dir);
    const defaults = await defaultConfig();
    let totalSaves = 0;
    for (let round = 0; round < 15; round++) {
      const saver = startSaver(dir);
      // Wait until it is saving, then kill it at a varying moment (that pause is the test: the kill
      // must land at different points of a write).
      await waitFor(() => saver.saves() >= 1, { timeout: 15_000, interval: 5, what: 'the first save' });
      await pause(3 + ((round * 7) % 40));
      const exited = nextEvent(saver.child, 'exit');
      saver.child.kill('SIGKILL');
      await exited;
      totalSaves += saver.saves();
      const text = await fs.readFile(path.join(dir, CONFIG_FILE), 'utf8');
      expect(() => JSON.parse(text), `round ${round}`).not.toThrow();
      const store = new ConfigStore(dir, async () => structuredClone(defaults), silentLogger);
      await store.load();
      expect(store.source, `round ${round}`).toBe('file');
    }
    expect(totalSaves).toBeGreaterThan(15);
    const leftovers = (await fs.readdir(dir)).filter((n) => n.endsWith('.tmp'));
    // Temp files of killed writers may remain, but never replace the config.
    expect(leftovers.every((n) => n.startsWith('.'))).toBe(true);
  }, 120_000);

  it('a corrupt config file still starts the server, on the last good backup', async () => {
    const dir = await tempDir('lucky-corrupt-');
    dirs.push(dir);
    const first = await startTestServer({ configDir: dir });
    const token = await first.login();
    await first.call('PUT', '/api/baseconfigure', { token, body: { logMaxSize: 3000 } });
    await first.call('PUT', '/api/baseconfigure', { token, body: { logMaxSize: 5000 } });
    await first.server.close();
    await fs.writeFile(path.join(dir, CONFIG_FILE), '\u0000\u0000garbage{{{');
    const second = await startTestServer({ configDir: dir });
    try {
      expect(second.server.core.store.source).toBe('backup');
      expect(second.server.core.store.get().base.logMaxSize).toBe(3000);
      const logs = second.server.core.ring
        .since()
        .map((l) => l.log)
        .join('\n');
      expect(logs).toMatch(/CONFIG FILE UNREADABLE/);
      expect(logs).toMatch(/STARTED FROM BACKUP/);
      expect((await second.call('GET', '/version')).body.ret).toBe(0);
    } finally {
      await second.server.close();
    }
  });
});

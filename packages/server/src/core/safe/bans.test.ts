import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safeConfigSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { BanList, banKeyOf } from './bans.js';

const settings = () => ({ ...safeConfigSchema.parse({}).autoBan, failures: 2, banMinutes: 10 });
const quiet = { banned: () => {}, expired: () => {} };
let dir = '';
afterEach(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  dir = '';
});

describe('ban keys', () => {
  it('IPv4 as is (mapped folded), IPv6 by its /64, garbage none', () => {
    expect(banKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(banKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(banKeyOf('2001:db8:a:b:1:2:3:4')).toBe('2001:db8:a:b::/64');
    expect(banKeyOf('nope')).toBeNull();
  });
});

describe('BanList', () => {
  it('saves (debounced, flushed) and loads back only live bans', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-bans-'));
    let now = 1_000_000;
    const a = BanList.inDir(dir, settings, () => now, quiet);
    for (const ip of ['203.0.113.1', '203.0.113.1', '2001:db8::1', '2001:db8::2']) a.failure(ip, 'webdav');
    expect(a.size).toBe(2);
    await a.flush();
    const b = BanList.inDir(dir, settings, () => now, quiet);
    await b.load();
    expect(
      b
        .list()
        .map((x) => x.ip)
        .sort(),
    ).toEqual(['2001:db8::/64', '203.0.113.1']);
    now += 10 * 60_000;
    const c = BanList.inDir(dir, settings, () => now, quiet);
    await c.load();
    expect(c.size).toBe(0);
  });

  it('a torn file starts without bans', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-bans-'));
    await fs.writeFile(path.join(dir, 'safe-bans.json'), '{"bans": {"203.0.');
    const b = BanList.inDir(dir, settings, () => 0, quiet);
    await b.load();
    expect(b.size).toBe(0);
  });

  it('tells when a ban starts and ends', () => {
    let now = 0;
    const seen: string[] = [];
    const b = new BanList(undefined, settings, () => now, {
      banned: (k) => seen.push(`banned ${k}`),
      expired: (k) => seen.push(`ended ${k}`),
    });
    b.failure('198.51.100.3', 'ftpserver');
    b.failure('198.51.100.3', 'knock');
    now += 10 * 60_000;
    b.prune();
    expect(seen).toEqual(['banned 198.51.100.3', 'ended 198.51.100.3']);
  });
});

// 1 GiB up and 1 GiB down through the proxy, over HTTP/1.1 and over HTTP/2 (h2c: the flow-control
// windows and the body back-pressure of our own engine), with the memory of the PROXY process flat: the built
// server runs in its own process (bench/reverseproxy-server.mjs), curl streams, the back end is in this process, and the server's RSS is
// read from /proc/<pid>/status during the transfers. A behaviour check, not a timing.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_V8_FLAGS } from '../src/cli/supervise.js';
import { INSTALL_ROOT } from '../src/core/version.js';
import { tempDir } from './harness.js';
import { type Backend, backend, freePort } from './reverseproxy-helpers.js';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
/**
 * How much the proxy's RSS may grow while 2 GiB pass through it. Most of the growth is socket
 * read buffers already passed on and not yet collected: V8 frees ArrayBuffers by its external-
 * memory threshold, which Node 24 reaches later than Node 20 did (measured on the same build:
 * +60 MB of ArrayBuffers on Node 20, +115 MB on Node 24, and the same +115 MB for 4 GiB as for
 * 1 GiB — bounded, not following the volume; RSS +140-170 MB with the worker's flags). A proxy
 * that buffered the stream would grow by the GiB.
 */
const RSS_GROWTH_LIMIT = 256 * MiB;
const LAUNCHER = path.join(INSTALL_ROOT, 'bench/reverseproxy-server.mjs');

let child: ChildProcess;
let dir: string;
let back: Backend;
let port: number;
let received = 0;

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/** `total` bytes in 64 KiB chunks, made lazily. */
function zeros(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024);
  let left = total;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** curl, resolving with its stdout. */
function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-s', '-S', '--max-time', '60', ...args], (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message} ${stderr}`)) : resolve(stdout),
    );
  });
}

/** Sample the proxy's RSS every 50 ms while `work` runs; answers the peak. */
async function peakRssDuring(pid: number, work: Promise<unknown>): Promise<number> {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, 50);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rssBytes(pid));
}

beforeAll(async () => {
  back = await backend('stream', (req, res) => {
    if (req.url === '/down') {
      res.writeHead(200, { 'content-length': String(GiB) });
      zeros(GiB).pipe(res);
      return;
    }
    req.on('data', (d: Buffer) => {
      received += d.length;
    });
    req.on('end', () => res.end(String(received)));
  });
  dir = await tempDir('lucky-rp-stream-');
  // No web service helper processes: the streams stay in the process whose RSS is sampled.
  // With the worker's V8 flags (a small young generation), as the supervisor starts it for users.
  child = spawn(process.execPath, [...WORKER_V8_FLAGS, LAUNCHER, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LUCKY_WEB_HELPERS: '0' },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
    });
    child.once('exit', (code) => reject(new Error(`launcher exited with ${code} (is the server built?)`)));
  });
  const base = `http://127.0.0.1:${JSON.parse(line).port}`;
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Account: '666', Password: '666' }),
  });
  const token = (await login.json()).token as string;
  port = await freePort();
  const r = await fetch(`${base}/api/reverseproxy/rules`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({
      address: '127.0.0.1',
      port,
      h2c: true,
      subRules: [{ domains: ['127.0.0.1'], targets: [back.url] }],
    }),
  });
  const made = await r.json();
  expect(made.ret, JSON.stringify(made)).toBe(0);
  expect(made.rule.status.state).toBe('running');
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await back?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('streaming through the proxy', () => {
  it('passes 1 GiB up and 1 GiB down with the proxy memory flat', { timeout: 60_000 }, async () => {
    const pid = child.pid as number;
    // Warm up: the first requests load code and make the back-end connection pool.
    for (let i = 0; i < 3; i++) expect(await curl([`http://127.0.0.1:${port}/`, '-d', 'x'])).toBeTruthy();
    received = 0;
    const before = rssBytes(pid);

    // The upload from this process, with a content-length (node's client, backpressure honoured).
    const up = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: '/up', method: 'PUT', headers: { 'content-length': String(GiB) } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      zeros(GiB).pipe(req);
    });
    const upPeak = await peakRssDuring(pid, up);
    expect(await up).toEqual({ status: 200, body: String(GiB) });

    const down = curl(['-o', '/dev/null', '-w', '%{http_code} %{size_download}', `http://127.0.0.1:${port}/down`]);
    const downPeak = await peakRssDuring(pid, down);
    expect(await down).toBe(`200 ${GiB}`);

    const growth = Math.max(upPeak, downPeak) - before;
    expect(
      growth,
      `RSS before ${(before / MiB).toFixed(1)} MiB, peak up ${(upPeak / MiB).toFixed(1)}, down ${(downPeak / MiB).toFixed(1)}`,
    ).toBeLessThan(RSS_GROWTH_LIMIT);
  });

  it('passes 1 GiB up and 1 GiB down over HTTP/2 (h2c) with the proxy memory flat', { timeout: 60_000 }, async () => {
    const pid = child.pid as number;
    const h2 = ['--http2-prior-knowledge'];
    for (let i = 0; i < 3; i++) expect(await curl([...h2, `http://127.0.0.1:${port}/`, '-d', 'x'])).toBeTruthy();
    // A sparse file of 1 GiB: curl streams it (-T), the disk holds nothing.
    const file = path.join(dir, 'up.bin');
    await fs.writeFile(file, '');
    await fs.truncate(file, GiB);
    received = 0;
    const before = rssBytes(pid);

    const up = curl([
      ...h2,
      '-X',
      'POST',
      '-T',
      file,
      '-w',
      ' %{http_version} %{http_code}',
      `http://127.0.0.1:${port}/up`,
    ]);
    const upPeak = await peakRssDuring(pid, up);
    expect(await up).toBe(`${GiB} 2 200`);

    const down = curl([
      ...h2,
      '-o',
      '/dev/null',
      '-w',
      '%{http_version} %{http_code} %{size_download}',
      `http://127.0.0.1:${port}/down`,
    ]);
    const downPeak = await peakRssDuring(pid, down);
    expect(await down).toBe(`2 200 ${GiB}`);

    const growth = Math.max(upPeak, downPeak) - before;
    expect(
      growth,
      `RSS before ${(before / MiB).toFixed(1)} MiB, peak up ${(upPeak / MiB).toFixed(1)}, down ${(downPeak / MiB).toFixed(1)}`,
    ).toBeLessThan(RSS_GROWTH_LIMIT);
  });
});

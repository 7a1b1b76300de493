// The HTTP-01 board reaches the web service's helper processes: a token set on the board is
// answered on connections a helper owns (read from the kernel with ss -p), and a token taken off
// the board is no longer answered there.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
const saved = { n: process.env.LUCKY_WEB_HELPERS, start: process.env.LUCKY_WEB_HELPERS_START };
let rp: Rp;
let port: number;

beforeAll(async () => {
  process.env.LUCKY_WEB_HELPERS = '1';
  process.env.LUCKY_WEB_HELPERS_START = 'eager';
  rp = await startRp();
  port = await freePort();
  await rp.addRule({ port, listenTypes: 'http', defaultRule: { serviceType: 'text', text: 'own answer' } });
  await waitFor(
    async () => JSON.stringify((await rp.call('GET', '/api/status')).body),
    (body) => body.includes('"helperProcesses":1'),
    { timeout: 15_000, interval: 100, what: 'a helper process' },
  );
}, 30_000);

afterAll(async () => {
  await rp?.close();
  for (const [k, v] of [
    ['LUCKY_WEB_HELPERS', saved.n],
    ['LUCKY_WEB_HELPERS_START', saved.start],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

/** One request on a new kept-alive connection: the body, and the socket (still open). */
function ask(path: string): Promise<{ body: string; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: site.test\r\n\r\n`),
    );
    let text = '';
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const len = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end >= 0 && len >= 0 && text.length >= end + 4 + len) {
        socket.removeAllListeners('data');
        resolve({ body: text.slice(end + 4, end + 4 + len), socket });
      }
    });
  });
}

/** PIDs owning the established server-side connections of the port. */
async function owners(): Promise<number[]> {
  const { stdout } = await run('ss', ['-tnpH', 'state', 'established', `( sport = :${port} )`]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => [...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
}

describe('HTTP-01 board in web service helper processes', () => {
  it('a helper answers the board’s tokens, and stops when they leave the board', async () => {
    const board = rp.s.server.core.challenges;
    board.set('helper_tok', 'helper_tok.thumb');
    const held: net.Socket[] = [];
    try {
      // Three fresh connections: the turns give the helper two of them.
      for (let i = 0; i < 3; i++) {
        const r = await ask('/.well-known/acme-challenge/helper_tok');
        expect(r.body).toBe('helper_tok.thumb');
        held.push(r.socket);
      }
      const pids = await waitFor(owners, (o) => o.length === 3, { timeout: 5000, interval: 100 });
      expect(pids.some((p) => p !== process.pid)).toBe(true);
      board.delete('helper_tok');
      // The removal travels to the helper over IPC: soon three fresh connections in a row (two of
      // them the helper's turns) get the rule's own page.
      await waitFor(async () => {
        const bodies: string[] = [];
        for (let i = 0; i < 3; i++) {
          const r = await ask('/.well-known/acme-challenge/helper_tok');
          held.push(r.socket);
          bodies.push(r.body);
        }
        return bodies.every((b) => b === 'own answer');
      });
    } finally {
      board.delete('helper_tok');
      for (const s of held) s.destroy();
    }
  });
});

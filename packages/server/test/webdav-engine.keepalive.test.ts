// One keep-alive connection carrying a large PUT and then more requests, as rclone, davfs2 and
// Windows do. The direct HTTP/1 path paused the socket when a body's last chunk filled the
// request's buffer, and nothing resumed it: the next request on the connection was never read.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DavServer, startDav } from './webdav-engine-helpers.js';

let dav: DavServer;
beforeAll(async () => {
  dav = await startDav();
});
afterAll(() => dav?.close());

function send(
  agent: http.Agent,
  method: string,
  p: string,
  body?: Buffer,
): Promise<{ status: number; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        agent,
        port: dav.port,
        host: '127.0.0.1',
        path: p,
        method,
        headers: body ? { 'content-length': String(body.length) } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: res.socket }));
      },
    );
    // Far longer than an answer takes on loopback; a hung connection fails the test instead of its time-out.
    r.setTimeout(5000, () => r.destroy(new Error(`no answer to ${method} ${p}`)));
    r.on('error', reject);
    r.end(body);
  });
}

describe('keep-alive after a large body', () => {
  for (const size of [70_000, 1_000_000])
    it(`a PUT of ${size} bytes, then GET, PROPFIND and another PUT on the same connection`, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const put = await send(agent, 'PUT', `/dav/files/big-${size}`, Buffer.alloc(size, 7));
        expect(put.status).toBe(201);
        const get = await send(agent, 'GET', `/dav/files/big-${size}`);
        expect(get.status).toBe(200);
        expect(get.socket).toBe(put.socket);
        expect((await send(agent, 'PROPFIND', `/dav/files/big-${size}`)).status).toBe(207);
        expect((await send(agent, 'PUT', `/dav/files/big-${size}`, Buffer.alloc(size, 8))).status).toBe(204);
      } finally {
        agent.destroy();
      }
    });
});

// The DNS check against a local DNS server (dns-packet answers; an independent encoder).
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOnServers } from './resolverCheck.js';

const ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
  'nas.example.com': { A: ['192.0.2.7'], AAAA: ['2001:db8::7'] },
  'v4only.example.com': { A: ['192.0.2.8'] },
};
let sock: dgram.Socket;
let port = 0;
const asked: string[] = [];

beforeAll(async () => {
  sock = dgram.createSocket('udp4');
  sock.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg);
    const question = q.questions?.[0];
    if (!question) return;
    asked.push(question.name);
    const wild = /^[0-9a-f]{8}\.wild\.example\.com$/.test(question.name) ? { A: ['192.0.2.9'] } : undefined;
    const rec = ZONE[question.name] ?? wild;
    const type = question.type as 'A' | 'AAAA';
    const answers = (rec?.[type] ?? []).map((data) => ({
      type,
      name: question.name,
      ttl: 60,
      class: 'IN' as const,
      data,
    }));
    const reply = dnsPacket.encode({
      id: q.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (rec ? 0 : 3), // rcode 3 = NXDOMAIN
      questions: q.questions,
      answers,
    });
    sock.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', r));
  port = (sock.address() as AddressInfo).port;
});
afterAll(() => sock.close());

describe('resolver check', () => {
  it('answers the addresses from the first server that answers', async () => {
    const dead = '127.0.0.1:9';
    expect(await resolveOnServers('nas.example.com', 4, [dead, `127.0.0.1:${port}`], 800)).toEqual({
      server: `127.0.0.1:${port}`,
      addresses: ['192.0.2.7'],
    });
    expect((await resolveOnServers('nas.example.com', 6, [`127.0.0.1:${port}`], 800)).addresses).toEqual([
      '2001:db8::7',
    ]);
  });

  it('"no such name" and "no record of this type" are answers, not errors', async () => {
    expect(await resolveOnServers('none.example.com', 4, [`127.0.0.1:${port}`], 800)).toEqual({
      server: `127.0.0.1:${port}`,
      addresses: [],
    });
    expect((await resolveOnServers('v4only.example.com', 6, [`127.0.0.1:${port}`], 800)).addresses).toEqual([]);
  });

  it('asks a wildcard with a random label', async () => {
    expect((await resolveOnServers('*.wild.example.com', 4, [`127.0.0.1:${port}`], 800)).addresses).toEqual([
      '192.0.2.9',
    ]);
    expect(asked.at(-1)).toMatch(/^[0-9a-f]{8}\.wild\.example\.com$/);
  });

  it('reports when no server answers', async () => {
    const r = await resolveOnServers('nas.example.com', 4, ['127.0.0.1:9'], 600);
    expect(r.server).toBe('');
    expect(r.error).toMatch(/127\.0\.0\.1:9/);
  });
});

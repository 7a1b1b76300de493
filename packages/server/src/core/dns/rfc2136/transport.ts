// Sends one DNS message and waits for the answer with the same ID: UDP first, TCP when the
// answer is truncated or UDP gets nothing back (RFC 1035 §4.2).
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import net from 'node:net';

export interface DnsServer {
  host: string;
  port: number;
}

export function parseServer(s: string): DnsServer {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(s) ?? /^([^:]+)(?::(\d+))?$/.exec(s);
  if (m) return { host: m[1], port: m[2] ? Number(m[2]) : 53 };
  return { host: s, port: 53 };
}

async function addressOf(host: string): Promise<{ address: string; family: 4 | 6 }> {
  const fam = net.isIP(host);
  if (fam) return { address: host, family: fam as 4 | 6 };
  const r = await lookup(host);
  return { address: r.address, family: r.family as 4 | 6 };
}

function udp(addr: { address: string; family: 4 | 6 }, port: number, msg: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket(addr.family === 6 ? 'udp6' : 'udp4');
    const id = msg.readUInt16BE(0);
    const timer = setTimeout(() => {
      sock.close();
      reject(new Error(`no UDP answer from ${addr.address}:${port}`));
    }, timeoutMs);
    sock.on('message', (data) => {
      if (data.length < 2 || data.readUInt16BE(0) !== id) return;
      clearTimeout(timer);
      sock.close();
      resolve(data);
    });
    sock.on('error', (e) => {
      clearTimeout(timer);
      sock.close();
      reject(e);
    });
    sock.send(msg, port, addr.address);
  });
}

function tcp(addr: { address: string }, port: number, msg: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: addr.address, port });
    let buf = Buffer.alloc(0);
    sock.setTimeout(timeoutMs, () => sock.destroy(new Error(`no TCP answer from ${addr.address}:${port}`)));
    sock.on('connect', () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(msg.length);
      sock.write(Buffer.concat([len, msg]));
    });
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        sock.end();
        resolve(buf.subarray(2, 2 + buf.readUInt16BE(0)));
      }
    });
    sock.on('error', reject);
    sock.on('close', () => reject(new Error('connection closed before the answer')));
  });
}

export async function exchange(server: DnsServer, msg: Buffer, timeoutMs: number): Promise<Buffer> {
  const addr = await addressOf(server.host);
  let answer: Buffer | undefined;
  try {
    answer = await udp(addr, server.port, msg, Math.min(timeoutMs, 3000));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code && (err as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw err;
  }
  if (answer && (answer.readUInt16BE(2) & 0x0200) === 0) return answer;
  return tcp(addr, server.port, msg, timeoutMs);
}

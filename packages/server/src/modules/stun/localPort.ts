import dgram from 'node:dgram';
import net from 'node:net';
import type { StunProtocol } from '@lucky/shared';

const TRIES = 20;

function tcpFree(address: string, port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(undefined));
    s.listen({ host: address, port, exclusive: true }, () => {
      const got = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(got));
    });
  });
}

function udpFree(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => {
      s.close();
      resolve(false);
    });
    s.bind({ address, port, exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/**
 * A local port free for every protocol of the rule (a rule with local port 0): the kernel picks
 * one for TCP, and it is kept when UDP is free on it too. The rule then keeps this number until
 * it stops, so a reopened mapping comes back on the same port.
 */
export async function pickLocalPort(address: string, protocols: readonly StunProtocol[]): Promise<number> {
  for (let i = 0; i < TRIES; i++) {
    const port = await tcpFree(address, 0);
    if (port === undefined) break;
    if (!protocols.includes('udp') || (await udpFree(address, port))) return port;
  }
  throw new Error(`no free local port on ${address}`);
}

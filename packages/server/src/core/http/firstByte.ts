import type net from 'node:net';

const TLS_HANDSHAKE = 0x16;

/**
 * HTTP and HTTPS on one port: wait for the first byte of a connection (a TLS
 * handshake starts with 0x16), put it back, and hand the socket on. Used by
 * the admin listener and the web service module's listeners.
 */
export function splitByFirstByte(
  socket: net.Socket,
  timeoutMs: number,
  route: (socket: net.Socket, isTls: boolean, first: Buffer) => void,
): void {
  socket.on('error', () => socket.destroy());
  socket.setTimeout(timeoutMs, () => socket.destroy());
  socket.once('data', (chunk: Buffer) => {
    socket.setTimeout(0);
    socket.pause();
    socket.unshift(chunk);
    route(socket, chunk[0] === TLS_HANDSHAKE, chunk);
    process.nextTick(() => socket.resume());
  });
}

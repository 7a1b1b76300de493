// A minimal RFC 9110 CONNECT proxy on loopback, written for the tests: it records each tunnel it
// was asked for (`<host:port> <Proxy-Authorization>`) and pipes bytes both ways.
import http from 'node:http';
import net from 'node:net';
import { listen } from './http-recorder.js';

export async function startConnectProxy() {
  const seen: string[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    seen.push(`${req.url} ${req.headers['proxy-authorization'] ?? ''}`);
    const [host, port] = (req.url ?? '').split(':');
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  const port = await listen(server);
  return {
    address: `127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// Fake gateways on loopback for the port-mapping clients' hostile-answer tests: a UDP server
// (NAT-PMP / PCP) and an HTTP server (UPnP description and SOAP) whose answers the test writes.
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUdp {
  port: number;
  /** Every datagram received, in order. */
  requests: Buffer[];
  close(): Promise<void>;
}

/** Answers each request with what `answer` returns (nothing, one datagram or several). */
export async function fakeUdpGateway(
  answer: (req: Buffer, n: number) => Buffer | Buffer[] | undefined,
): Promise<FakeUdp> {
  const socket = dgram.createSocket('udp4');
  const requests: Buffer[] = [];
  socket.on('message', (msg, r) => {
    requests.push(msg);
    const out = answer(msg, requests.length);
    for (const d of out === undefined ? [] : Array.isArray(out) ? out : [out]) socket.send(d, r.port, r.address);
  });
  await new Promise<void>((resolve) => socket.bind({ address: '127.0.0.1', port: 0 }, () => resolve()));
  return {
    port: socket.address().port,
    requests,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export interface FakeRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An answer, or 'hang' (never answer) / 'reset' (drop the connection). */
export type FakeAnswer =
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer }
  | 'hang'
  | 'reset';

export interface FakeHttp {
  /** An http URL of this server. */
  url(path: string): string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function fakeHttpGateway(answer: (req: FakeRequest) => FakeAnswer): Promise<FakeHttp> {
  const requests: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(r);
      const a = answer(r);
      if (a === 'hang') return;
      if (a === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(a.status ?? 200, { 'content-type': 'text/xml', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A device description with one connection service at `control` (relative or absolute). */
export function description(control: string, serviceType = 'urn:schemas-upnp-org:service:WANIPConnection:1'): string {
  return `<?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><device>
<deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><friendlyName>Fake &amp; Co router</friendlyName>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType><deviceList><device>
<serviceList><service><serviceType>${serviceType}</serviceType><serviceId>x</serviceId><controlURL>${control}</controlURL></service></serviceList>
</device></deviceList></device></deviceList></device></root>`;
}

/** A SOAP answer of `action` with the given elements. */
export const soapAnswer = (action: string, inner = '') =>
  `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><u:${action}Response xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1">${inner}</u:${action}Response></s:Body></s:Envelope>`;

/** A SOAP fault with a UPnP error. */
export const soapFault = (code: number, description: string) =>
  `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail><UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>${code}</errorCode><errorDescription>${description}</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>`;

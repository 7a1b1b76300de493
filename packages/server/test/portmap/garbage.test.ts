// Every answer from a gateway is untrusted: fake NAT-PMP / PCP / UPnP gateways on loopback answer
// with junk, short or oversized packets, wrong versions, opcodes and nonces, result codes, SOAP
// faults, hostile descriptions, silence and resets. Each ends in a coded error (or is ignored
// while a good answer follows), never a crash. Retransmission is shortened (initial 20 ms) where
// silence is the case under test; the number of requests sent is what is checked.
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { PortMapError } from '../../src/modules/stun/portmap/errors.js';
import { natpmpExternalAddress, natpmpMap } from '../../src/modules/stun/portmap/natpmp.js';
import { newPcpNonce, pcpMap } from '../../src/modules/stun/portmap/pcp.js';
import { addPortMapping, getExternalAddress, openGateway } from '../../src/modules/stun/portmap/upnp.js';
import {
  description,
  type FakeAnswer,
  type FakeRequest,
  fakeHttpGateway,
  fakeUdpGateway,
  soapAnswer,
  soapFault,
} from './fakeGateway.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function udpGateway(answer: Parameters<typeof fakeUdpGateway>[0]) {
  const g = await fakeUdpGateway(answer);
  closers.push(g.close);
  return g;
}
async function httpGateway(answer: (req: FakeRequest) => FakeAnswer) {
  const g = await fakeHttpGateway(answer);
  closers.push(g.close);
  return g;
}

/** The coded error a call ends in (fails the test when it succeeds or throws something else). */
async function codeOf(p: Promise<unknown>): Promise<{ code: string; params: Record<string, unknown> }> {
  const err = await p.then(
    (v) => new Error(`expected a failure, got ${JSON.stringify(v)}`),
    (e: unknown) => e,
  );
  if (!(err instanceof PortMapError)) throw err;
  return { code: err.code, params: err.params };
}

const quick = { gateway: '127.0.0.1', initialTimeoutMs: 20, maxTries: 3 };

/** A NAT-PMP answer: version 0, 128 + op, result, epoch, then the body. */
const pmp = (op: number, result: number, body: Buffer = Buffer.alloc(0)) => {
  const h = Buffer.alloc(8);
  h[1] = 128 + op;
  h.writeUInt16BE(result, 2);
  h.writeUInt32BE(1234, 4);
  return Buffer.concat([h, body]);
};
const pmpAddress = (ip: string) => pmp(0, 0, Buffer.from(ip.split('.').map(Number)));
const pmpMapping = (op: number, internal: number, external: number, lifetime: number) => {
  const b = Buffer.alloc(8);
  b.writeUInt16BE(internal, 0);
  b.writeUInt16BE(external, 2);
  b.writeUInt32BE(lifetime, 4);
  return pmp(op, 0, b);
};

const JUNK = [
  Buffer.alloc(0),
  Buffer.from([0]),
  Buffer.from([0, 128]),
  Buffer.from([0, 128, 0]),
  Buffer.from([1, 128, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]), // version 1
  Buffer.from([0, 129, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]), // another opcode
  Buffer.from([0, 128, 0, 0, 0, 0, 0, 0, 1, 2]), // success, but short
  randomBytes(3),
  randomBytes(40),
  Buffer.alloc(4000, 0xff),
];

describe('NAT-PMP against hostile gateways', () => {
  it('reads a good public-address answer and sends the RFC 6886 request', async () => {
    const g = await udpGateway(() => pmpAddress('203.0.113.7'));
    expect(await natpmpExternalAddress({ ...quick, port: g.port })).toEqual({
      externalAddress: '203.0.113.7',
      epoch: 1234,
      gateway: '127.0.0.1',
    });
    expect(g.requests).toEqual([Buffer.from([0, 0])]);
  });

  it('ignores junk, keeps retransmitting, and says the answers were bad', async () => {
    const g = await udpGateway(() => JUNK);
    expect(await codeOf(natpmpExternalAddress({ ...quick, port: g.port }))).toEqual({
      code: 'badAnswer',
      params: { method: 'natpmp', gateway: '127.0.0.1', detail: expect.any(String) },
    });
    expect(g.requests).toHaveLength(3);
  });

  it('takes a good answer that follows junk', async () => {
    const g = await udpGateway(() => [...JUNK, pmpAddress('198.51.100.9')]);
    expect((await natpmpExternalAddress({ ...quick, port: g.port })).externalAddress).toBe('198.51.100.9');
  });

  it('silence is a time-out after the configured number of requests', async () => {
    const g = await udpGateway(() => undefined);
    expect(await codeOf(natpmpExternalAddress({ ...quick, port: g.port }))).toEqual({
      code: 'timeout',
      params: { method: 'natpmp', gateway: '127.0.0.1' },
    });
    expect(g.requests).toHaveLength(3);
  });

  it('a closed port (ICMP unreachable) fails at once as unreachable', async () => {
    const s = dgram.createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
    const port = s.address().port;
    s.close();
    expect(await codeOf(natpmpExternalAddress({ ...quick, maxTries: 9, port }))).toEqual({
      code: 'unreachable',
      params: { method: 'natpmp', gateway: '127.0.0.1', detail: 'ECONNREFUSED' },
    });
  });

  it.each([
    [1, 'unsupportedVersion'],
    [2, 'notAuthorized'],
    [3, 'networkFailure'],
    [4, 'outOfResources'],
    [5, 'unsupportedOpcode'],
    [99, 'resultCode'],
  ])('result code %i is the coded error %s', async (result, code) => {
    const g = await udpGateway(() => pmp(1, result, Buffer.alloc(8)));
    expect(
      await codeOf(
        natpmpMap(
          { protocol: 'udp', internalPort: 5000, externalPort: 5000, lifetimeSec: 60 },
          { ...quick, port: g.port },
        ),
      ),
    ).toEqual({ code, params: { method: 'natpmp', gateway: '127.0.0.1', result } });
  });

  it('a mapping answer for another port, or with port 0 and lifetime 0, is not believed', async () => {
    const g = await udpGateway(() => [
      pmpMapping(2, 6000, 7000, 60),
      pmpMapping(2, 5000, 0, 0),
      pmpMapping(2, 5000, 15000, 30),
    ]);
    const m = await natpmpMap(
      { protocol: 'tcp', internalPort: 5000, externalPort: 5000, lifetimeSec: 60 },
      { ...quick, port: g.port },
    );
    expect(m).toMatchObject({ protocol: 'tcp', internalPort: 5000, externalPort: 15000, lifetimeSec: 30 });
    const req = g.requests[0];
    expect([req[0], req[1], req.readUInt16BE(4), req.readUInt16BE(6), req.readUInt32BE(8)]).toEqual([
      0, 2, 5000, 5000, 60,
    ]);
  });

  it('refuses a gateway that is not an IPv4 address', async () => {
    expect(await codeOf(natpmpExternalAddress({ gateway: 'router.lan' }))).toEqual({
      code: 'badGateway',
      params: { gateway: 'router.lan' },
    });
  });
});

/** A PCP MAP answer echoing the request's nonce, protocol and internal port. */
function pcpAnswer(
  req: Buffer,
  o: { result?: number; port?: number; address?: Buffer; nonce?: Buffer; version?: number },
) {
  const b = Buffer.alloc(60);
  b[0] = o.version ?? 2;
  b[1] = 0x81;
  b[3] = o.result ?? 0;
  b.writeUInt32BE(req.readUInt32BE(4), 4);
  b.writeUInt32BE(99, 8);
  (o.nonce ?? req.subarray(24, 36)).copy(b, 24);
  b[36] = req[36];
  b.writeUInt16BE(req.readUInt16BE(40), 40);
  b.writeUInt16BE(o.port ?? req.readUInt16BE(42), 42);
  (o.address ?? Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 203, 0, 113, 5])).copy(b, 44);
  return b;
}

describe('PCP against hostile gateways', () => {
  const req = (nonce = newPcpNonce()) => ({
    protocol: 'udp' as const,
    internalPort: 5000,
    externalPort: 5000,
    lifetimeSec: 600,
    nonce,
  });

  it('sends an RFC 6887 MAP request and reads the answer', async () => {
    const g = await udpGateway((r) => pcpAnswer(r, { port: 5001 }));
    const nonce = newPcpNonce();
    expect(await pcpMap(req(nonce), { ...quick, port: g.port })).toEqual({
      protocol: 'udp',
      internalPort: 5000,
      externalPort: 5001,
      externalAddress: '203.0.113.5',
      lifetimeSec: 600,
      epoch: 99,
      gateway: '127.0.0.1',
    });
    const r = g.requests[0];
    expect(r.length).toBe(60);
    expect([r[0], r[1], r.readUInt32BE(4)]).toEqual([2, 1, 600]);
    expect(r.subarray(8, 24)).toEqual(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]));
    expect(r.subarray(24, 36)).toEqual(nonce);
    expect([r[36], r.readUInt16BE(40), r.readUInt16BE(42)]).toEqual([17, 5000, 5000]);
  });

  it("a NAT-PMP server's unsupported-version answer is the coded unsupportedVersion", async () => {
    const g = await udpGateway(() => Buffer.from([0, 129, 0, 1, 0, 0, 0, 1]));
    expect(await codeOf(pcpMap(req(), { ...quick, port: g.port }))).toEqual({
      code: 'unsupportedVersion',
      params: { method: 'pcp', gateway: '127.0.0.1', result: 1 },
    });
  });

  it('ignores answers with another nonce, a non-IPv4 address, junk and oversized datagrams', async () => {
    const g = await udpGateway((r) => [
      ...JUNK,
      pcpAnswer(r, { nonce: randomBytes(12) }),
      pcpAnswer(r, { address: Buffer.from('20010db8000000000000000000000001', 'hex') }),
      Buffer.concat([pcpAnswer(r, {}), Buffer.alloc(1100)]),
    ]);
    expect(await codeOf(pcpMap(req(), { ...quick, port: g.port }))).toMatchObject({ code: 'badAnswer' });
    expect(g.requests).toHaveLength(3);
  });

  it('a result code with our nonce is the coded error', async () => {
    const g = await udpGateway((r) => pcpAnswer(r, { result: 11 }));
    expect(await codeOf(pcpMap(req(), { ...quick, port: g.port }))).toEqual({
      code: 'cannotProvideExternal',
      params: { method: 'pcp', gateway: '127.0.0.1', result: 11 },
    });
  });
});

describe('UPnP IGD against hostile gateways', () => {
  const opts = { timeoutMs: 300 };

  it.each<[string, string, FakeAnswer]>([
    ['not XML', 'noService', { body: 'hello, world' }],
    ['a 404', 'badAnswer', { status: 404, body: 'no' }],
    ['an oversized description', 'badAnswer', { body: Buffer.alloc(300_000, 'a') }],
    [
      'an oversized description without a length',
      'badAnswer',
      { headers: { 'transfer-encoding': 'chunked' }, body: Buffer.alloc(300_000, 'a') },
    ],
    ['no answer', 'timeout', 'hang'],
    ['a reset connection', 'unreachable', 'reset'],
    ['a control URL on another host', 'noService', { body: description('http://192.0.2.1/ctl') }],
    ['a control URL that is not http', 'noService', { body: description('file:///etc/passwd') }],
    ['thousands of unclosed service elements', 'noService', { body: `<root>${'<service>'.repeat(12_000)}</root>` }],
  ])('a description that is %s → %s', async (_what, code, answer) => {
    const g = await httpGateway(() => answer);
    expect((await codeOf(openGateway(g.url('/desc.xml'), opts))).code).toBe(code);
  });

  it('a gateway that is neither an IPv4 address nor an http URL is refused without a request', async () => {
    for (const gateway of ['ftp://router/desc.xml', 'http://[bad', 'router.lan']) {
      expect(await codeOf(openGateway(gateway))).toEqual({ code: 'badGateway', params: { gateway } });
    }
  });

  /** A gateway whose description is good and whose control URL answers with `soap`. */
  async function igd(soap: (req: FakeRequest) => FakeAnswer) {
    const g = await httpGateway((req) => (req.method === 'GET' ? { body: description('/ctl/IPConn') } : soap(req)));
    return { g, svc: await openGateway(g.url('/rootDesc.xml'), opts) };
  }
  const m = {
    protocol: 'tcp' as const,
    externalPort: 18080,
    internalPort: 8080,
    internalClient: '127.0.0.1',
    description: 'x <&> y',
    leaseSec: 3600,
  };

  it('reads the description (entities decoded, control URL resolved) and sends a proper SOAP call', async () => {
    const { g, svc } = await igd(() => ({ body: soapAnswer('AddPortMapping') }));
    expect(svc).toMatchObject({
      friendlyName: 'Fake & Co router',
      serviceType: 'urn:schemas-upnp-org:service:WANIPConnection:1',
      controlUrl: g.url('/ctl/IPConn'),
    });
    expect(await addPortMapping(svc, m, opts)).toEqual({ leaseSec: 3600 });
    const call = g.requests.at(-1) as FakeRequest;
    expect(call.headers.soapaction).toBe('"urn:schemas-upnp-org:service:WANIPConnection:1#AddPortMapping"');
    expect(call.body).toContain('<NewPortMappingDescription>x &lt;&amp;&gt; y</NewPortMappingDescription>');
    expect(call.body).toContain('<NewProtocol>TCP</NewProtocol><NewInternalPort>8080</NewInternalPort>');
  });

  it.each([
    [718, 'conflictInMappingEntry'],
    [606, 'actionNotAuthorized'],
    [728, 'noPortMapsAvailable'],
    [716, 'wildcardNotPermitted'],
    [799, 'upnpFault'],
  ])('SOAP fault %i → %s with the error code', async (errorCode, code) => {
    const { svc } = await igd(() => ({ status: 500, body: soapFault(errorCode, 'Some\u0000Text') }));
    expect(await codeOf(addPortMapping(svc, m, opts))).toEqual({
      code,
      params: {
        method: 'upnp',
        gateway: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        errorCode,
        description: 'Some Text',
      },
    });
  });

  it('725 OnlyPermanentLeasesSupported: asked again with lease 0', async () => {
    const { g, svc } = await igd((req) =>
      req.body.includes('<NewLeaseDuration>0<')
        ? { body: soapAnswer('AddPortMapping') }
        : { status: 500, body: soapFault(725, 'OnlyPermanentLeasesSupported') },
    );
    expect(await addPortMapping(svc, m, opts)).toEqual({ leaseSec: 0 });
    expect(
      g.requests.filter((r) => r.method === 'POST').map((r) => /<NewLeaseDuration>(\d+)</.exec(r.body)?.[1]),
    ).toEqual(['3600', '0']);
  });

  it.each<[string, string, FakeAnswer]>([
    ['a 200 without the action response', 'badAnswer', { body: '<html>ok</html>' }],
    ['a 500 without a fault', 'badAnswer', { status: 500, body: 'oops' }],
    [
      'a fault with a non-numeric code',
      'badAnswer',
      { status: 500, body: soapFault(0, 'x').replace('<errorCode>0', '<errorCode>abc') },
    ],
    [
      'an address that is not IPv4',
      'badAnswer',
      { body: soapAnswer('GetExternalIPAddress', '<NewExternalIPAddress>not-an-ip</NewExternalIPAddress>') },
    ],
    [
      'an empty address (not connected)',
      'networkFailure',
      { body: soapAnswer('GetExternalIPAddress', '<NewExternalIPAddress></NewExternalIPAddress>') },
    ],
    ['no answer', 'timeout', 'hang'],
  ])('GetExternalIPAddress answered with %s → %s', async (_what, code, answer) => {
    const { svc } = await igd(() => answer);
    expect((await codeOf(getExternalAddress(svc, opts))).code).toBe(code);
  });

  it('reads a prefixed answer element', async () => {
    const { svc } = await igd(() => ({
      body: soapAnswer(
        'GetExternalIPAddress',
        '<m:NewExternalIPAddress xmlns:m="x">198.51.100.3</m:NewExternalIPAddress>',
      ),
    }));
    expect(await getExternalAddress(svc, opts)).toBe('198.51.100.3');
  });
});

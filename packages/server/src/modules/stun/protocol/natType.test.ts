// NAT behaviour discovery against a model: an RFC 5780 server with two addresses behind a NAT of
// a chosen mapping and filtering behaviour, all on a fake socket and fake timers (a filtered test
// is a time-out). The model also catches the order trap: had the mapping tests run before the
// filtering tests, the holes they open would make every NAT look endpoint-independent.
// The real NATs (netns lab) are the module's integration test; coturn on loopback is in
// test/stun.coturn.test.ts.
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ATTR, BINDING_SUCCESS, decodeMessage, encodeAddress, encodeMessage, type StunAttribute } from './message.js';
import { detectNatType, type FilteringBehaviour, type MappingBehaviour, verdictOf, verdictText } from './natType.js';
import { type DatagramSocket, type StunEndpoint, UdpStunChannel } from './udp.js';

const LOCAL = { address: '192.168.1.2', port: 40000 };
const PRIMARY = { address: '192.0.2.1', port: 3478 };
const ALTERNATE = { address: '192.0.2.2', port: 3479 };
const PUBLIC_IP = '203.0.113.5';

interface Model {
  mapping: Exclude<MappingBehaviour, 'unknown'>;
  filtering: Exclude<FilteringBehaviour, 'unknown'>;
  /** The server sends OTHER-ADDRESS (RFC 5780 capable). */
  otherAddress?: boolean;
  /** The server answers CHANGE-REQUEST from the address asked (else from where it was asked). */
  honoursChange?: boolean;
  /** Nothing answers at all. */
  silent?: boolean;
}

const key = (e: StunEndpoint) => `${e.address}:${e.port}`;

/** A socket whose datagrams go through the modelled NAT to the modelled server and back. */
class NatModelSocket implements DatagramSocket {
  channel!: UdpStunChannel;
  private readonly sentTo = new Set<string>();
  private readonly ports = new Map<string, number>();
  constructor(private readonly m: Model) {}

  address(): AddressInfo {
    return { address: '0.0.0.0', family: 'IPv4', port: LOCAL.port };
  }

  private mapped(dest: StunEndpoint): StunEndpoint {
    if (this.m.mapping === 'none') return LOCAL;
    const k =
      this.m.mapping === 'endpointIndependent' ? '*' : this.m.mapping === 'addressDependent' ? dest.address : key(dest);
    if (!this.ports.has(k)) this.ports.set(k, 50000 + this.ports.size);
    return { address: PUBLIC_IP, port: this.ports.get(k)! };
  }

  private passes(from: StunEndpoint): boolean {
    if (this.m.filtering === 'endpointIndependent') return true;
    if (this.m.filtering === 'addressDependent') return [...this.sentTo].some((k) => k.startsWith(`${from.address}:`));
    return this.sentTo.has(key(from));
  }

  send(msg: Buffer, port: number, address: string, cb: (error: Error | null, bytes: number) => void): void {
    queueMicrotask(() => cb(null, msg.length));
    const dest = { address, port };
    this.sentTo.add(key(dest));
    if (this.m.silent) return;
    const req = decodeMessage(msg);
    const flags = req.attributes.find((a) => a.type === ATTR.CHANGE_REQUEST)?.value.readUInt32BE(0) ?? 0;
    const honour = this.m.honoursChange ?? true;
    const other = (v: string, a: string, b: string) => (v === a ? b : a);
    const from = {
      address: honour && flags & 4 ? other(address, PRIMARY.address, ALTERNATE.address) : address,
      port: honour && flags & 2 ? Number(other(String(port), String(PRIMARY.port), String(ALTERNATE.port))) : port,
    };
    const txn = req.transactionId;
    const attrs: StunAttribute[] = [
      { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress({ family: 4, ...this.mapped(dest) }, txn) },
      { type: ATTR.RESPONSE_ORIGIN, value: encodeAddress({ family: 4, ...from }) },
    ];
    if (this.m.otherAddress ?? true)
      attrs.push({ type: ATTR.OTHER_ADDRESS, value: encodeAddress({ family: 4, ...ALTERNATE }) });
    const answer = encodeMessage(BINDING_SUCCESS, txn, attrs);
    if (this.passes(from)) queueMicrotask(() => this.channel.handle(answer, from));
  }
}

async function classify(m: Model) {
  const socket = new NatModelSocket(m);
  const channel = new UdpStunChannel(socket);
  socket.channel = channel;
  const p = detectNatType({ server: PRIMARY, udp: channel, localAddresses: [LOCAL.address] });
  // Each filtered test is a time-out on the fake clock; run the clock until discovery is done.
  await vi.runAllTimersAsync();
  return p;
}

describe('NAT behaviour discovery (model)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const table: [string, Model, MappingBehaviour, FilteringBehaviour, string][] = [
    ['no NAT', { mapping: 'none', filtering: 'endpointIndependent' }, 'none', 'endpointIndependent', 'open'],
    [
      'full cone',
      { mapping: 'endpointIndependent', filtering: 'endpointIndependent' },
      'endpointIndependent',
      'endpointIndependent',
      'fullCone',
    ],
    [
      'restricted cone',
      { mapping: 'endpointIndependent', filtering: 'addressDependent' },
      'endpointIndependent',
      'addressDependent',
      'restrictedCone',
    ],
    [
      'port-restricted cone',
      { mapping: 'endpointIndependent', filtering: 'addressPortDependent' },
      'endpointIndependent',
      'addressPortDependent',
      'portRestrictedCone',
    ],
    [
      'address-dependent mapping',
      { mapping: 'addressDependent', filtering: 'addressPortDependent' },
      'addressDependent',
      'addressPortDependent',
      'symmetric',
    ],
    [
      'symmetric',
      { mapping: 'addressPortDependent', filtering: 'addressPortDependent' },
      'addressPortDependent',
      'addressPortDependent',
      'symmetric',
    ],
  ];
  for (const [name, model, mapping, filtering, verdict] of table) {
    it(name, async () => {
      const r = await classify(model);
      expect(r).toMatchObject({ mapping, filtering, verdict, otherAddress: ALTERNATE, notes: [] });
      expect(r.publicAddress).toEqual(model.mapping === 'none' ? LOCAL : { address: PUBLIC_IP, port: 50000 });
      expect(r.detail).toBe(verdictText(r.verdict));
    });
  }

  it('a server without OTHER-ADDRESS: unsupportedServer, the public address still known', async () => {
    const r = await classify({ mapping: 'endpointIndependent', filtering: 'endpointIndependent', otherAddress: false });
    expect(r).toMatchObject({ verdict: 'unsupportedServer', mapping: 'unknown', filtering: 'unknown' });
    expect(r.publicAddress).toEqual({ address: PUBLIC_IP, port: 50000 });
    expect(r.otherAddress).toBeUndefined();
  });

  it('a server that ignores CHANGE-REQUEST is not read as endpoint-independent filtering', async () => {
    const r = await classify({
      mapping: 'endpointIndependent',
      filtering: 'addressPortDependent',
      honoursChange: false,
    });
    expect(r.filtering).toBe('unknown');
    expect(r.mapping).toBe('endpointIndependent');
    expect(r.verdict).toBe('unsupportedServer');
    expect(r.notes[0]).toMatch(/asked to answer from 192\.0\.2\.2:3479/);
  });

  it('no answer at all: blocked', async () => {
    const r = await classify({ mapping: 'endpointIndependent', filtering: 'endpointIndependent', silent: true });
    expect(r).toMatchObject({ verdict: 'blocked', mapping: 'unknown', filtering: 'unknown' });
    expect(r.detail).toMatch(/UDP is blocked/);
  });
});

describe('verdicts', () => {
  it('the sentences of the brief, and the TCP mapping appended', () => {
    expect(verdictText('fullCone')).toBe('endpoint-independent mapping and filtering: TCP and UDP ports can be opened');
    expect(verdictText('symmetric')).toBe(
      'the mapping changes per destination: ports cannot be opened through this NAT',
    );
    expect(verdictText('fullCone', 'addressPortDependent')).toBe(
      'endpoint-independent mapping and filtering: TCP and UDP ports can be opened; TCP: the mapping changes per destination, TCP ports cannot be opened',
    );
  });

  it('symmetric mapping wins over any filtering; unknown parts make the server unsupported', () => {
    const base = { otherAddress: ALTERNATE, blocked: false };
    expect(verdictOf({ ...base, mapping: 'addressPortDependent', filtering: 'unknown' })).toBe('symmetric');
    expect(verdictOf({ ...base, mapping: 'unknown', filtering: 'endpointIndependent' })).toBe('unsupportedServer');
    expect(verdictOf({ ...base, mapping: 'none', filtering: 'addressDependent' })).toBe('restrictedCone');
  });
});

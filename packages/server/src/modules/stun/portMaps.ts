import dgram from 'node:dgram';
import type { StunPortMapView, StunProtocol } from '@lucky/shared';
import type { MappingHost } from './host.js';
import { defaultGateway } from './portmap/gateway.js';
import { PortMapping } from './portmap/mapping.js';

type Method = 'upnp' | 'natpmp';

interface Entry {
  protocol: StunProtocol;
  method: Method;
  mapping: PortMapping;
  externalPort: number;
  view: StunPortMapView;
}

/** The LAN address this box uses toward `ip` (a UDP connect sends nothing; it asks the routing table). */
function sourceToward(ip: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => {
      s.close();
      resolve(undefined);
    });
    s.connect(9, ip, () => {
      const a = s.address().address;
      s.close();
      resolve(a);
    });
  });
}

/**
 * The router's port mappings of a rule (UPnP IGD and/or NAT-PMP/PCP, per protocol): external
 * port = the public port STUN reported (the local port until it has), internal = this box's LAN
 * address and the local port; renewed at half the lease by PortMapping, removed at stop.
 */
export class PortMaps {
  private entries: Entry[] = [];
  private stopped = false;

  constructor(
    private readonly host: MappingHost,
    private readonly localPort: number,
  ) {}

  start(): void {
    void this.open();
  }

  private async open(): Promise<void> {
    const rule = this.host.rule();
    let internal = '';
    try {
      internal = this.host.channel().address;
    } catch {
      return; // the mappings report the channel problem
    }
    if (internal === '0.0.0.0') {
      const gw = rule.natpmpGateway || (await defaultGateway());
      internal = (gw ? await sourceToward(gw) : undefined) ?? '';
    }
    if (this.stopped) return;
    const methods: Method[] = [
      ...(rule.upnp ? (['upnp'] as const) : []),
      ...(rule.natpmp ? (['natpmp'] as const) : []),
    ];
    for (const protocol of rule.protocols)
      for (const method of methods) this.add(protocol, method, internal, this.localPort);
  }

  private add(protocol: StunProtocol, method: Method, internal: string, externalPort: number): void {
    const rule = this.host.rule();
    const view: StunPortMapView = { method: method === 'natpmp' ? 'natpmp' : 'upnp', ok: false };
    const entry: Entry = {
      protocol,
      method,
      externalPort,
      view,
      mapping: new PortMapping(
        method === 'upnp' ? 'upnp' : rule.natpmpMethod,
        {
          protocol,
          internalAddress: internal,
          internalPort: this.localPort,
          externalPort,
          leaseSec: rule.leaseSec,
          description: `lucky-stun ${rule.name}`,
          ...(method === 'upnp' ? { gateway: rule.upnpGateway } : { gateway: rule.natpmpGateway }),
          ...(internal ? { localAddress: internal } : {}),
        },
        {
          onChange: (s) => {
            // 'auto' may have settled on PCP: show the method that holds the mapping.
            if (s.method) view.method = s.method;
            const name = view.method === 'upnp' ? 'UPnP' : view.method === 'pcp' ? 'PCP' : 'NAT-PMP';
            entry.view = s.ok
              ? {
                  method: view.method,
                  ok: true,
                  ...(s.externalAddress ? { externalAddress: s.externalAddress } : {}),
                  ...(s.externalPort ? { externalPort: s.externalPort } : {}),
                }
              : {
                  method: view.method,
                  ok: false,
                  reason: { code: 'portMapFailed', params: { method: name, detail: s.detail ?? s.code ?? '' } },
                  error: `${name} port mapping failed: ${s.detail ?? s.code ?? ''}`,
                };
            if (s.ok)
              this.host.line(4, 'portMapOk', {
                proto: protocol,
                method: name,
                externalAddress: s.externalAddress ?? '?',
                externalPort: s.externalPort ?? externalPort,
                internalPort: this.localPort,
                lease: rule.leaseSec,
              });
            else
              this.host.line(3, 'portMapFailed', { proto: protocol, method: name, detail: s.detail ?? s.code ?? '' });
          },
        },
        { setTimeout: (fn, ms) => this.host.setTimeout(fn, ms) },
      ),
    };
    this.entries.push(entry);
    entry.mapping.start();
  }

  /** STUN saw another public port: ask the router to map that one instead. */
  publicPort(protocol: StunProtocol, port: number): void {
    for (const e of this.entries.filter((x) => x.protocol === protocol && x.externalPort !== port)) {
      this.entries = this.entries.filter((x) => x !== e);
      void e.mapping.stop();
      const internal = e.mapping.req.internalAddress;
      this.add(protocol, e.method, internal, port);
    }
  }

  views(protocol: StunProtocol): StunPortMapView[] {
    return this.entries.filter((e) => e.protocol === protocol).map((e) => e.view);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(
      this.entries.map(async (e) => {
        await e.mapping.stop();
        this.host.line(4, 'portMapRemoved', { proto: e.protocol, method: e.method === 'upnp' ? 'UPnP' : 'NAT-PMP' });
      }),
    );
    this.entries = [];
  }
}

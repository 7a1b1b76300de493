// UPnP IGD client (IGD 1 and 2): find the gateway (SSDP, or the description URL / address the
// user gave), read its description, and call WANIPConnection / WANPPPConnection over SOAP:
// GetExternalIPAddress, AddPortMapping, DeletePortMapping. UPnP errors become coded errors.
import net from 'node:net';
import type { CodedText } from '@lucky/shared';
import { asPortMapError, clip, type PortMapCode, PortMapError } from './errors.js';
import {
  elementText,
  type IgdDescription,
  isActionResponse,
  parseDescription,
  parseSoapFault,
  soapEnvelope,
  type WanService,
} from './igdXml.js';
import { lanHttp } from './lanHttp.js';
import type { MapProtocol } from './natpmp.js';
import { ssdpSearch } from './ssdp.js';

export interface UpnpOptions {
  /** Source address of the search and the calls (the rule's channel address). */
  localAddress?: string;
  /** Per step: the SSDP search, the description, each SOAP call (default 3000 ms). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One WAN connection service of one gateway, ready for calls. */
export interface IgdService extends WanService {
  location: string;
  friendlyName: string;
}

export interface UpnpMappingRequest {
  protocol: MapProtocol;
  externalPort: number;
  internalPort: number;
  internalClient: string;
  description: string;
  /** Seconds; 0 asks for a permanent mapping. */
  leaseSec: number;
}

const DEFAULT_TIMEOUT_MS = 3000;

const FAULTS: Record<number, PortMapCode> = {
  402: 'invalidArgs',
  501: 'actionFailed',
  606: 'actionNotAuthorized',
  714: 'noSuchEntryInArray',
  715: 'wildcardNotPermitted',
  716: 'wildcardNotPermitted',
  718: 'conflictInMappingEntry',
  724: 'samePortValuesRequired',
  725: 'onlyPermanentLeasesSupported',
  726: 'wildcardNotPermitted',
  727: 'wildcardNotPermitted',
  728: 'noPortMapsAvailable',
  729: 'conflictWithOtherMechanisms',
  732: 'wildcardNotPermitted',
};

/** A UPnP error (UDA §3.2.2, IGD WANIPConnection §2.4) as a coded error. */
export function upnpFaultError(gateway: string, fault: { errorCode: number; description: string }): PortMapError {
  return new PortMapError(FAULTS[fault.errorCode] ?? 'upnpFault', {
    method: 'upnp',
    gateway,
    errorCode: fault.errorCode,
    description: clip(fault.description, 80),
  });
}

const stepTimeout = (opts: UpnpOptions) => opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

async function describe(location: string, opts: UpnpOptions): Promise<IgdDescription> {
  const url = new URL(location);
  const answer = await lanHttp(url, {
    localAddress: opts.localAddress,
    timeoutMs: stepTimeout(opts),
    signal: opts.signal,
  });
  if (answer.status !== 200) {
    throw new PortMapError('badAnswer', { method: 'upnp', gateway: url.host, detail: `HTTP ${answer.status}` });
  }
  return parseDescription(answer.body, url.href);
}

/** Calls `action`; resolves with the answer's XML, throws the coded UPnP error of a fault. */
async function soapCall(
  svc: IgdService,
  action: string,
  args: Array<[string, string | number]>,
  opts: UpnpOptions,
): Promise<string> {
  const url = new URL(svc.controlUrl);
  const answer = await lanHttp(url, {
    method: 'POST',
    localAddress: opts.localAddress,
    timeoutMs: stepTimeout(opts),
    signal: opts.signal,
    headers: {
      'content-type': 'text/xml; charset="utf-8"',
      soapaction: `"${svc.serviceType}#${action}"`,
    },
    body: soapEnvelope(svc.serviceType, action, args),
  });
  if (answer.status === 200 && isActionResponse(answer.body, action)) return answer.body;
  const fault = parseSoapFault(answer.body);
  if (fault) throw upnpFaultError(url.host, fault);
  throw new PortMapError('badAnswer', {
    method: 'upnp',
    gateway: url.host,
    detail: answer.status === 200 ? `no ${action}Response` : `HTTP ${answer.status}`,
  });
}

/**
 * The gateway to talk to: `gateway` is its description URL (http://…), its IPv4 address (searched
 * for with SSDP, answers from elsewhere ignored), or empty (the first IGD that answers). Of several
 * WAN connection services the first that names an external address is taken.
 */
export async function openGateway(gateway: string | undefined, opts: UpnpOptions = {}): Promise<IgdService> {
  let location: string;
  const where = gateway ?? '';
  try {
    if (/^http:\/\//i.test(where)) {
      if (!URL.canParse(where)) throw new PortMapError('badGateway', { gateway: clip(where) });
      location = new URL(where).href;
    } else if (where === '' || net.isIPv4(where)) {
      const target = where === '' ? undefined : where;
      const found = await ssdpSearch({
        localAddress: opts.localAddress,
        timeoutMs: stepTimeout(opts),
        target,
        first: true,
        signal: opts.signal,
      });
      if (found.length === 0) {
        throw target
          ? new PortMapError('timeout', { method: 'upnp', gateway: target })
          : new PortMapError('noGateway', { method: 'upnp', localAddress: opts.localAddress ?? '0.0.0.0' });
      }
      location = found[0].location;
    } else {
      throw new PortMapError('badGateway', { gateway: clip(where) });
    }
  } catch (err) {
    throw asPortMapError(err, 'upnp', where);
  }
  const host = new URL(location).host;
  const description = await describe(location, opts).catch((err) => {
    throw asPortMapError(err, 'upnp', host);
  });
  const services = description.services.map((s) => ({ ...s, location, friendlyName: description.friendlyName }));
  if (services.length === 0) throw new PortMapError('noService', { method: 'upnp', gateway: host });
  if (services.length === 1) return services[0];
  for (const svc of services) {
    const connected = await getExternalAddress(svc, opts).then(
      () => true,
      () => false,
    );
    if (connected) return svc;
  }
  return services[0];
}

/** The gateway's public address (GetExternalIPAddress). */
export async function getExternalAddress(svc: IgdService, opts: UpnpOptions = {}): Promise<string> {
  const gateway = new URL(svc.controlUrl).host;
  try {
    const xml = await soapCall(svc, 'GetExternalIPAddress', [], opts);
    const address = elementText(xml, 'NewExternalIPAddress') ?? '';
    if (address === '' || address === '0.0.0.0') {
      throw new PortMapError('networkFailure', { method: 'upnp', gateway, result: 'no external address' });
    }
    if (!net.isIPv4(address))
      throw new PortMapError('badAnswer', { method: 'upnp', gateway, detail: clip(address, 40) });
    return address;
  } catch (err) {
    throw asPortMapError(err, 'upnp', gateway);
  }
}

const mappingArgs = (m: UpnpMappingRequest, leaseSec: number): Array<[string, string | number]> => [
  ['NewRemoteHost', ''],
  ['NewExternalPort', m.externalPort],
  ['NewProtocol', m.protocol.toUpperCase()],
  ['NewInternalPort', m.internalPort],
  ['NewInternalClient', m.internalClient],
  ['NewEnabled', 1],
  ['NewPortMappingDescription', m.description.slice(0, 64)],
  ['NewLeaseDuration', leaseSec],
];

/**
 * Adds (or refreshes: the same call again) a mapping. A gateway that only takes permanent
 * mappings (725) is asked again with lease 0; the answer says which lease holds.
 */
export async function addPortMapping(
  svc: IgdService,
  m: UpnpMappingRequest,
  opts: UpnpOptions = {},
): Promise<{ leaseSec: number }> {
  const gateway = new URL(svc.controlUrl).host;
  try {
    await soapCall(svc, 'AddPortMapping', mappingArgs(m, m.leaseSec), opts);
    return { leaseSec: m.leaseSec };
  } catch (err) {
    if (!(err instanceof PortMapError && err.code === 'onlyPermanentLeasesSupported' && m.leaseSec !== 0)) {
      throw asPortMapError(err, 'upnp', gateway);
    }
  }
  try {
    await soapCall(svc, 'AddPortMapping', mappingArgs(m, 0), opts);
    return { leaseSec: 0 };
  } catch (err) {
    throw asPortMapError(err, 'upnp', gateway);
  }
}

/** Removes the mapping of an external port (DeletePortMapping). */
export async function deletePortMapping(
  svc: IgdService,
  m: { protocol: MapProtocol; externalPort: number },
  opts: UpnpOptions = {},
): Promise<void> {
  const gateway = new URL(svc.controlUrl).host;
  try {
    await soapCall(
      svc,
      'DeletePortMapping',
      [
        ['NewRemoteHost', ''],
        ['NewExternalPort', m.externalPort],
        ['NewProtocol', m.protocol.toUpperCase()],
      ],
      opts,
    );
  } catch (err) {
    throw asPortMapError(err, 'upnp', gateway);
  }
}

/** One entry of the gateway picker. */
export interface GatewayInfo {
  /** The description URL: what the user picks (and what `openGateway` takes). */
  location: string;
  /** Who answered the search. */
  address: string;
  friendlyName: string;
  serviceType?: string;
  externalAddress?: string;
  /** Why this gateway cannot be used (no WAN service, no answer to the calls …). */
  error?: CodedText;
}

/** Every IGD that answers an SSDP search within the time-out, each with its external address. */
export async function discoverGateways(
  opts: { localAddress?: string; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<GatewayInfo[]> {
  const answers = await ssdpSearch({
    localAddress: opts.localAddress,
    timeoutMs: opts.timeoutMs ?? 2000,
    signal: opts.signal,
  }).catch((err) => {
    throw asPortMapError(err, 'upnp', '');
  });
  const callOpts = { localAddress: opts.localAddress, signal: opts.signal };
  return Promise.all(
    answers.map(async (a): Promise<GatewayInfo> => {
      const info: GatewayInfo = { location: a.location, address: a.address, friendlyName: '' };
      try {
        const svc = await openGateway(a.location, callOpts);
        info.friendlyName = svc.friendlyName;
        info.serviceType = svc.serviceType;
        info.externalAddress = await getExternalAddress(svc, callOpts);
      } catch (err) {
        info.error = asPortMapError(err, 'upnp', new URL(a.location).host).coded();
      }
      return info;
    }),
  );
}

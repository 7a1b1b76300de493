// Every way a port-mapping request can fail, as code + params + English text (the module's
// dialect: the UI translates the code, API users and the log read the text). The gateway is an
// untrusted peer, so its own words (a UPnP errorDescription) only ever travel as a bounded param.
import type { CodedText } from '@lucky/shared';

export type PortMapMethodName = 'upnp' | 'natpmp' | 'pcp';

/** English text per code; `{name}` is filled from the params. */
export const PORTMAP_MESSAGES = {
  // Transport and discovery, any protocol.
  noGateway: 'no UPnP internet gateway answered the search from {localAddress}',
  noDefaultGateway: 'this machine has no IPv4 default gateway to ask for a port mapping',
  timeout: 'the gateway {gateway} did not answer the {method} request in time',
  unreachable: 'the gateway {gateway} cannot be reached for {method} ({detail})',
  badAnswer: 'the gateway {gateway} sent an answer that is not valid {method}: {detail}',
  badGateway: 'the gateway is not an IPv4 address or an http:// description URL: {gateway}',
  noService: 'the UPnP device at {gateway} offers no WANIPConnection or WANPPPConnection service',
  aborted: 'the {method} request was cancelled',
  // UPnP IGD faults (errorCode from the SOAP fault).
  invalidArgs: 'the gateway refused the mapping as invalid (UPnP {errorCode})',
  actionFailed: 'the gateway could not carry out the request (UPnP {errorCode})',
  actionNotAuthorized: 'the gateway does not allow this client to change port mappings (UPnP {errorCode})',
  noSuchEntryInArray: 'the gateway has no such port mapping (UPnP {errorCode})',
  conflictInMappingEntry: 'the external port is already mapped to another client (UPnP {errorCode})',
  samePortValuesRequired: 'the gateway requires the same internal and external port (UPnP {errorCode})',
  onlyPermanentLeasesSupported: 'the gateway only accepts permanent mappings (UPnP {errorCode})',
  wildcardNotPermitted: 'the gateway does not accept a wildcard in this mapping (UPnP {errorCode})',
  noPortMapsAvailable: 'the gateway has no room for another port mapping (UPnP {errorCode})',
  conflictWithOtherMechanisms: 'the external port is taken by another mechanism on the gateway (UPnP {errorCode})',
  upnpFault: 'the gateway refused the request: UPnP error {errorCode} {description}',
  // NAT-PMP (RFC 6886) and PCP (RFC 6887) result codes.
  unsupportedVersion: 'the gateway does not support this {method} version (result {result})',
  notAuthorized: 'the gateway refused the mapping: not authorised (result {result})',
  networkFailure: 'the gateway has no working external connection (result {result})',
  outOfResources: 'the gateway has no room for another mapping (result {result})',
  unsupportedOpcode: 'the gateway does not support this {method} request (result {result})',
  malformedRequest: 'the gateway could not parse the request (result {result})',
  unsupportedOption: 'the gateway does not support an option of the request (result {result})',
  malformedOption: 'the gateway could not parse an option of the request (result {result})',
  unsupportedProtocol: 'the gateway cannot map this protocol (result {result})',
  userExceededQuota: 'the gateway refused: this client holds too many mappings (result {result})',
  cannotProvideExternal: 'the gateway cannot give the requested external port or address (result {result})',
  addressMismatch: 'the gateway sees this request from another address than the one it names (result {result})',
  excessiveRemotePeers: 'the gateway cannot create filters for that many peers (result {result})',
  resultCode: 'the gateway answered with {method} result {result}',
} as const;

export type PortMapCode = keyof typeof PORTMAP_MESSAGES;

const fill = (template: string, params: Record<string, unknown>) =>
  template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));

/** A failed mapping call: `code` names the reason, `params` its details (method, gateway, result …). */
export class PortMapError extends Error {
  constructor(
    readonly code: PortMapCode,
    readonly params: Record<string, unknown> = {},
  ) {
    super(fill(PORTMAP_MESSAGES[code], { detail: '', description: '', ...params }).trim());
    this.name = 'PortMapError';
  }

  /** The reason as the module reports it. */
  coded(): CodedText {
    return { code: this.code, params: this.params, text: this.message };
  }
}

/** Any error as a PortMapError (an unexpected one becomes `badAnswer` with its message). */
export function asPortMapError(err: unknown, method: PortMapMethodName, gateway: string): PortMapError {
  if (err instanceof PortMapError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'AbortError' || e?.code === 'ABORT_ERR') return new PortMapError('aborted', { method, gateway });
  if (e?.code && /^E[A-Z]+$/.test(e.code)) return new PortMapError('unreachable', { method, gateway, detail: e.code });
  return new PortMapError('badAnswer', { method, gateway, detail: clip(String(e?.message ?? err)) });
}

/** A peer's words cut to a size a status line can carry. */
export const clip = (s: string, max = 120): string => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const flat = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

// The little XML a UPnP IGD client reads and writes: the device description (friendly name and the
// WAN connection services with their control URLs) and SOAP envelopes, answers and faults. The
// texts come from a device on the LAN, so they are read with flat, non-nesting patterns over a
// bounded string; nothing here builds a tree or resolves external entities.

/** WAN connection services that carry port mappings, best first. */
export const WAN_SERVICE_TYPES = [
  'urn:schemas-upnp-org:service:WANIPConnection:2',
  'urn:schemas-upnp-org:service:WANIPConnection:1',
  'urn:schemas-upnp-org:service:WANPPPConnection:1',
] as const;

export interface WanService {
  serviceType: string;
  /** Absolute http URL. */
  controlUrl: string;
}

export interface IgdDescription {
  friendlyName: string;
  /** Usable connection services in WAN_SERVICE_TYPES order. */
  services: WanService[];
}

const MAX_SERVICES = 64;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text content with the predefined and numeric entities decoded (no others exist without a DTD). */
export function decodeXmlText(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? m;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

export const escapeXml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);

/** The text of the first `<name>` element (any namespace prefix) in `xml`, or undefined. */
export function elementText(xml: string, name: string): string | undefined {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^<>]*)?>([^<]*)</(?:[\\w.-]+:)?${name}\\s*>`).exec(xml);
  if (m) return decodeXmlText(m[1]).trim();
  // An empty element written as <name/>.
  return new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^<>]*)?/>`).test(xml) ? '' : undefined;
}

/**
 * The insides of each `<service>…</service>` element, found with indexOf so that a hostile text
 * (thousands of openings, no closing) costs one pass, not one per opening.
 */
function* serviceBlocks(xml: string): Generator<string> {
  let from = 0;
  for (;;) {
    const open = xml.indexOf('<service>', from);
    if (open < 0) return;
    const close = xml.indexOf('</service>', open);
    if (close < 0) return;
    yield xml.slice(open + 9, close);
    from = close + 10;
  }
}

/**
 * Reads a device description fetched from `location`. Control URLs are resolved against
 * URLBase (UDA 1.0) or the location, and must stay on the location's host over http: a device
 * cannot send our SOAP calls elsewhere.
 */
export function parseDescription(xml: string, location: string): IgdDescription {
  const friendlyName = elementText(xml, 'friendlyName') ?? '';
  const baseText = elementText(xml, 'URLBase');
  const origin = new URL(location);
  let base = origin;
  if (baseText) {
    try {
      base = new URL(baseText);
    } catch {
      // an unusable URLBase: relative URLs resolve against the location
    }
  }
  const candidates: WanService[] = [];
  for (const block of serviceBlocks(xml)) {
    if (candidates.length >= MAX_SERVICES) break;
    const serviceType = elementText(block, 'serviceType') ?? '';
    const control = elementText(block, 'controlURL');
    if (!(WAN_SERVICE_TYPES as readonly string[]).includes(serviceType) || !control) continue;
    let url: URL;
    try {
      url = new URL(control, base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' || url.hostname !== origin.hostname || url.username || url.password) continue;
    candidates.push({ serviceType, controlUrl: url.href });
  }
  const rank = (t: string) => (WAN_SERVICE_TYPES as readonly string[]).indexOf(t);
  candidates.sort((a, b) => rank(a.serviceType) - rank(b.serviceType));
  return { friendlyName: friendlyName.slice(0, 128), services: candidates };
}

/** A SOAP 1.1 request envelope for `action` of `serviceType` with its arguments in order. */
export function soapEnvelope(serviceType: string, action: string, args: Array<[string, string | number]>): string {
  const body = args.map(([k, v]) => `<${k}>${escapeXml(String(v))}</${k}>`).join('');
  return (
    '<?xml version="1.0"?>\r\n' +
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" ' +
    's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<s:Body><u:${action} xmlns:u="${escapeXml(serviceType)}">${body}</u:${action}></s:Body></s:Envelope>\r\n`
  );
}

/** The UPnP error of a SOAP fault (UPnP DA §3.2.2), or undefined when the text is no such fault. */
export function parseSoapFault(xml: string): { errorCode: number; description: string } | undefined {
  const code = elementText(xml, 'errorCode');
  if (code === undefined || !/^\d{1,4}$/.test(code)) return undefined;
  return { errorCode: Number(code), description: elementText(xml, 'errorDescription') ?? '' };
}

/** Whether an answer holds the `<actionResponse>` element a successful call returns. */
export const isActionResponse = (xml: string, action: string): boolean =>
  new RegExp(`<(?:[\\w.-]+:)?${action}Response[\\s/>]`).test(xml);

// The parsers that read what a gateway or the kernel says: SSDP answers, /proc/net/route, the
// device description and SOAP texts. Hostile or broken input gives "nothing usable", never a throw.
import { describe, expect, it } from 'vitest';
import { parseDefaultRoutes } from './gateway.js';
import { decodeXmlText, elementText, parseDescription, parseSoapFault, soapEnvelope } from './igdXml.js';
import { mSearch, parseSsdpAnswer } from './ssdp.js';

const answer = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
const IGD2 = 'urn:schemas-upnp-org:device:InternetGatewayDevice:2';

describe('SSDP', () => {
  it('writes an M-SEARCH as UDA 1.1 asks', () => {
    expect(mSearch(IGD2, 2).toString()).toBe(
      `M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 2\r\nST: ${IGD2}\r\n\r\n`,
    );
  });

  it('reads an IGD answer (header names in any case)', () => {
    const a = parseSsdpAnswer(
      answer([
        'HTTP/1.1 200 OK',
        `st: ${IGD2}`,
        'Location: http://192.168.1.1:5000/rootDesc.xml',
        'USN: uuid:x::y',
        'SERVER: r',
      ]),
      '192.168.1.1',
    );
    expect(a).toEqual({
      location: 'http://192.168.1.1:5000/rootDesc.xml',
      st: IGD2,
      usn: 'uuid:x::y',
      server: 'r',
      address: '192.168.1.1',
    });
  });

  it.each([
    ['a NOTIFY', ['NOTIFY * HTTP/1.1', `NT: ${IGD2}`, 'LOCATION: http://h/x']],
    ['an error status', ['HTTP/1.1 500 Oops', `ST: ${IGD2}`, 'LOCATION: http://h/x']],
    ['another device type', ['HTTP/1.1 200 OK', 'ST: upnp:rootdevice', 'LOCATION: http://h/x']],
    ['no location', ['HTTP/1.1 200 OK', `ST: ${IGD2}`]],
    ['a location that is no URL', ['HTTP/1.1 200 OK', `ST: ${IGD2}`, 'LOCATION: ::::']],
    ['an https location', ['HTTP/1.1 200 OK', `ST: ${IGD2}`, 'LOCATION: https://h/x']],
    ['a location with credentials', ['HTTP/1.1 200 OK', `ST: ${IGD2}`, 'LOCATION: http://u:p@h/x']],
    ['a file location', ['HTTP/1.1 200 OK', `ST: ${IGD2}`, 'LOCATION: file:///etc/passwd']],
  ])('ignores %s', (_what, lines) => {
    expect(parseSsdpAnswer(answer(lines), '10.0.0.1')).toBeUndefined();
  });

  it('ignores binary junk and empty datagrams', () => {
    for (const junk of [Buffer.alloc(0), Buffer.alloc(3000, 0xff), Buffer.from('HTTP/1.1 200 OK')]) {
      expect(parseSsdpAnswer(junk, '10.0.0.1')).toBeUndefined();
    }
  });
});

describe('/proc/net/route', () => {
  const HEAD = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT';
  it('finds default routes, lowest metric first, and skips the rest', () => {
    const text = [
      HEAD,
      'eth1\t00000000\t0101A8C0\t0003\t0\t0\t200\t00000000\t0\t0\t0',
      'eth0\t00000000\t014DA8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0',
      'eth0\t004DA8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0', // on-link LAN route
      'tun0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0', // default without a gateway
      'eth2\t00000000\t0201A8C0\t0002\t0\t0\t0\t00000000\t0\t0\t0', // not up
      'garbage',
    ].join('\n');
    expect(parseDefaultRoutes(text)).toEqual([
      { iface: 'eth0', gateway: '192.168.77.1', metric: 100 },
      { iface: 'eth1', gateway: '192.168.1.1', metric: 200 },
    ]);
    expect(parseDefaultRoutes('')).toEqual([]);
  });
});

describe('IGD XML', () => {
  it('decodes entities, numeric ones included, and leaves unknown ones', () => {
    expect(decodeXmlText('a &amp; b &lt;c&gt; &#65;&#x42; &bogus; &#0;')).toBe('a & b <c> AB &bogus; &#0;');
  });

  it('finds element text with or without a namespace prefix, empty elements too', () => {
    expect(elementText('<a:x y="1"> v </a:x>', 'x')).toBe('v');
    expect(elementText('<x/>', 'x')).toBe('');
    expect(elementText('<xy>1</xy>', 'x')).toBeUndefined();
  });

  it('orders WAN services IGD2 first and resolves control URLs against URLBase or the location', () => {
    const xml = `<root><URLBase>http://10.0.0.1:49000/</URLBase><device><friendlyName>R</friendlyName><serviceList>
      <service><serviceType>urn:schemas-upnp-org:service:WANPPPConnection:1</serviceType><controlURL>/ppp</controlURL></service>
      <service><serviceType>urn:schemas-upnp-org:service:Layer3Forwarding:1</serviceType><controlURL>/l3f</controlURL></service>
      <service><serviceType>urn:schemas-upnp-org:service:WANIPConnection:2</serviceType><controlURL>ip2</controlURL></service>
    </serviceList></device></root>`;
    expect(parseDescription(xml, 'http://10.0.0.1:5000/desc.xml')).toEqual({
      friendlyName: 'R',
      services: [
        { serviceType: 'urn:schemas-upnp-org:service:WANIPConnection:2', controlUrl: 'http://10.0.0.1:49000/ip2' },
        { serviceType: 'urn:schemas-upnp-org:service:WANPPPConnection:1', controlUrl: 'http://10.0.0.1:49000/ppp' },
      ],
    });
  });

  it('reads a UPnP fault and nothing from other texts', () => {
    expect(parseSoapFault('<errorCode>718</errorCode><errorDescription>Conflict</errorDescription>')).toEqual({
      errorCode: 718,
      description: 'Conflict',
    });
    expect(parseSoapFault('<errorCode>99999</errorCode>')).toBeUndefined();
    expect(parseSoapFault('<html/>')).toBeUndefined();
  });

  it('escapes arguments in the envelope', () => {
    expect(soapEnvelope('urn:x', 'A', [['NewDesc', '<b>&"']])).toContain(
      '<u:A xmlns:u="urn:x"><NewDesc>&lt;b&gt;&amp;&quot;</NewDesc></u:A>',
    );
  });
});

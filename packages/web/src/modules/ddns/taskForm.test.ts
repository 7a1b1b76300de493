import { DDNS_DEFAULT_IPV4_URLS, DDNS_DEFAULT_IPV6_URLS, SECRET_MASK } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { splitLines } from '../../components/LinesInput';
import {
  applyCallbackPreset,
  checkTaskInput,
  defaultUrls,
  formFieldOf,
  lineOf,
  newTaskValues,
  taskToValues,
  urlsForRecordType,
  valuesToInput,
} from './taskForm';
import { taskView } from './testData';

describe('task form values', () => {
  it('a new task: Cloudflare, A record, the default IPv4 URL list, schema defaults', () => {
    const v = newTaskValues();
    expect(v.dns.provider).toBe('cloudflare');
    expect(splitLines(v.ipSource.urls)).toEqual(DDNS_DEFAULT_IPV4_URLS);
    expect(v.forceInterval).toBe(3600);
    expect(v.httpTimeout).toBe(20);
    expect(v.webhook.enabled).toBe(false);
  });

  it('lists are edited one per line; blanks and spaces go on the way out', () => {
    const v = newTaskValues();
    v.domains = ' nas.example.com \n\nwww:example.com?proxied=true\n';
    v.dns.secret = ' token ';
    const input = valuesToInput(v);
    expect(input.domains).toEqual(['nas.example.com', 'www:example.com?proxied=true']);
    expect(input.dns?.secret).toBe('token');
  });

  it('a listed task comes back with its secret still masked and its lists as text', () => {
    const v = taskToValues(taskView({ domains: ['a.example.com', 'b.example.com'] }));
    expect(v.dns.secret).toBe(SECRET_MASK);
    expect(v.domains).toBe('a.example.com\nb.example.com');
    expect(valuesToInput(v).dns?.secret).toBe(SECRET_MASK);
  });

  it('checks with the server schema: same fields and codes', () => {
    const v = newTaskValues();
    v.ipSource.urls = 'https://ok.example\nnot a url';
    v.domains = 'bad domain';
    v.forceInterval = 10;
    const issues = checkTaskInput(valuesToInput(v));
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'domains.0', code: 'domainInvalid' }),
        expect.objectContaining({ field: 'ipSource.urls.1', code: 'urlInvalid' }),
        expect.objectContaining({ field: 'dns.secret', code: 'secretRequired' }),
        expect.objectContaining({ field: 'forceInterval', code: 'tooSmall' }),
      ]),
    );
  });

  it('a list entry belongs to its text area; the line is named', () => {
    expect(formFieldOf('ipSource.urls.1')).toEqual(['ipSource', 'urls']);
    expect(formFieldOf('webhook.proxy.address')).toEqual(['webhook', 'proxy', 'address']);
    expect(formFieldOf('')).toEqual([]);
    expect(lineOf('domains.2')).toBe(3);
    expect(lineOf('domains')).toBeUndefined();
  });

  it('switching the record type swaps a default URL list, not one the user wrote', () => {
    expect(splitLines(urlsForRecordType(defaultUrls('A'), 'AAAA'))).toEqual(DDNS_DEFAULT_IPV6_URLS);
    expect(urlsForRecordType('http://mine/ip', 'AAAA')).toBe('http://mine/ip');
  });

  it('a callback preset fills method, URL for the record type and success strings', () => {
    const cb = applyCallbackPreset(newTaskValues().dns.callback, 'noip', 'AAAA');
    expect(cb.url).toContain('myipv6=#{ip}');
    expect(cb.headers).toBe('BasicAuthUserName:#{id}\nBasicAuthPassword:#{secret}');
    expect(cb.successStrings).toBe('good #{ip}\nnochg #{ip}');
  });
});

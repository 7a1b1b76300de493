import {
  customConfigCount,
  customConfigPieces,
  isBackendUrl,
  isFrontDomain,
  maskPieces,
  parseCustomConfig,
  restorePieces,
  reverseproxyConfigSchema,
  reverseproxyIssues,
  reverseproxyRuleInputSchema,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';

describe('reverseproxy schema', () => {
  it('an empty object parses to working defaults', () => {
    expect(reverseproxyConfigSchema.parse({})).toEqual({ enabled: true, rules: [] });
    const r = reverseproxyRuleInputSchema.parse({});
    expect(r).toMatchObject({ listenTypes: 'http', port: 16666, minTlsVersion: 'TLSv1.2', http2: true, http3: false });
    expect(r.defaultRule.cors.methods).toEqual(['POST', 'GET', 'PUT', 'OPTIONS', 'DELETE']);
    expect(r.defaultRule.log).toEqual({ capacity: 1000, level: 4, toConsole: false, showLatest: 10 });
  });

  it('validates listening address, domains and back ends with codes (English text: the spec messages)', () => {
    const issue = (input: unknown) => {
      const r = reverseproxyRuleInputSchema.safeParse(input);
      return r.error && reverseproxyIssues.fromZod(r.error.issues[0]);
    };
    expect(issue({ address: '300.1.1.1' })).toEqual({
      field: 'address',
      code: 'listenAddressInvalid',
      params: {},
      msg: 'invalid listening address format',
    });
    expect(reverseproxyRuleInputSchema.safeParse({ address: '::1' }).success).toBe(true);
    expect(issue({ subRules: [{ domains: [''], serviceType: 'text' }] })).toMatchObject({
      field: 'subRules.0.domains',
      code: 'domainRequired',
      msg: "the sub rule's domain name cannot be empty",
    });
    expect(issue({ subRules: [{ domains: ['a b.com'], serviceType: 'text' }] })).toMatchObject({
      field: 'subRules.0.domains.0',
      code: 'domainInvalid',
      params: { token: 'a b.com' },
    });
    expect(issue({ defaultRule: { requestHeaders: [{ name: 'X Y', value: '1' }] } })).toMatchObject({
      field: 'defaultRule.requestHeaders.0.name',
      code: 'headerInvalid',
      params: { token: 'X Y' },
    });
    expect(isFrontDomain('_dmarc.example.com')).toBe(true);
    expect(isFrontDomain('::1')).toBe(true);
    expect(isFrontDomain('*.::1')).toBe(false);
    expect(isFrontDomain('*.example.com')).toBe(true);
    expect(isFrontDomain('*.*.example.com')).toBe(false);
    expect(isFrontDomain('a b.com')).toBe(false);
    expect(isBackendUrl('https://[::1]:8443/base')).toBe(true);
    expect(isBackendUrl('http://host:0')).toBe(false);
    expect(isBackendUrl('ftp://host')).toBe(false);
  });
});

describe('network type', () => {
  it('is dual-stack tcp by default; an address literal must be of the chosen family', () => {
    expect(reverseproxyRuleInputSchema.parse({}).network).toBe('tcp');
    const ok = (network: string, address: string) =>
      reverseproxyRuleInputSchema.safeParse({ network, address }).success;
    expect(ok('tcp', '192.168.1.2') && ok('tcp', '::1') && ok('tcp4', '') && ok('tcp6', '')).toBe(true);
    expect(ok('tcp4', '127.0.0.1') && ok('tcp6', '[::1]')).toBe(true);
    const v4on6 = reverseproxyRuleInputSchema.safeParse({ network: 'tcp6', address: '127.0.0.1' });
    expect(v4on6.error?.issues[0]).toMatchObject({
      path: ['address'],
      message: 'networkAddressFamily',
    });
    expect(ok('tcp4', '::1')).toBe(false);
    expect(ok('udp', '')).toBe(false);
  });
});

describe('custom config', () => {
  it('reads the nginx-style directives: quotes, comments, the optional ;', () => {
    const r = parseCustomConfig(
      [
        '# sent to the back end',
        'proxy_set_header X-Site   "home lab";',
        "proxy_set_header Accept-Encoding '';",
        'proxy_hide_header X-Powered-By',
        'add_header Strict-Transport-Security "max-age=31536000" always;',
        '',
        'add_header X-Note "a;b # not a comment"  # a comment',
      ].join('\n'),
    );
    expect(r).toEqual({
      ok: true,
      config: {
        requestHeaders: [{ name: 'X-Site', value: 'home lab' }],
        dropRequestHeaders: ['accept-encoding'],
        responseHeaders: [
          { name: 'Strict-Transport-Security', value: 'max-age=31536000' },
          { name: 'X-Note', value: 'a;b # not a comment' },
        ],
        hideHeaders: ['x-powered-by'],
      },
    });
    expect(customConfigCount('proxy_hide_header Server\nadd_header A b')).toBe(2);
  });

  it.each([
    ['proxy_pass http://x;', 'customConfigUnknown', 1, 'proxy_pass'],
    ['\nproxy_set_header X-Only', 'customConfigArgs', 2, 'proxy_set_header'],
    ['add_header A b sometimes', 'customConfigArgs', 1, 'add_header'],
    ['proxy_set_header Content-Length 5', 'customConfigHeader', 1, 'Content-Length'],
    ['proxy_hide_header "bad name"', 'customConfigHeader', 1, 'bad name'],
    ['proxy_set_header X-Real-IP $remote_addr;', 'customConfigVariable', 1, '$remote_addr'],
    ['add_header X "open', 'customConfigSyntax', 1, 'add_header X "open'],
  ])('%j → %s on line %i', (text, code, line, token) => {
    expect(parseCustomConfig(text)).toEqual({ ok: false, problem: { code, line, token } });
    const issue = reverseproxyRuleInputSchema.safeParse({ defaultRule: { customConfig: text } }).error?.issues[0];
    expect(issue).toMatchObject({ path: ['defaultRule', 'customConfig'], message: code, params: { line, token } });
    // As the API answers it: the code with the line and the word at fault, in the English text too.
    const field = issue && reverseproxyIssues.fromZod(issue);
    expect(field).toMatchObject({ field: 'defaultRule.customConfig', code, params: { line, token } });
    expect(field?.msg).toContain(`line ${line}`);
  });

  it('masks credential values on read and puts them back on write', () => {
    const text = 'proxy_set_header Authorization "Bearer s3cr3t-v4lue";\nadd_header X-Plain visible';
    const pieces = customConfigPieces(text);
    const shown = maskPieces(pieces);
    expect(shown).toBe('proxy_set_header Authorization "Bearer ******";\nadd_header X-Plain visible');
    expect(restorePieces(shown, pieces)).toBe(text);
    expect(restorePieces(`${shown}\nproxy_hide_header Server`, pieces)).toBe(`${text}\nproxy_hide_header Server`);
    expect(maskPieces(customConfigPieces('proxy_set_header X-Id 9f8e7d6c5b4a39281706'))).toBe(
      'proxy_set_header X-Id ******',
    );
  });
});

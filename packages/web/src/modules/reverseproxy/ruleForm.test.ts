import {
  REVERSEPROXY_MESSAGES,
  reverseproxyRuleInputSchema,
  reverseproxySubRuleInputSchema,
  SERVICE_TYPES,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { codeOfMessage, issueOfError, issueOfSchema, issueText } from './errors';
import {
  checkAddress,
  checkBatchField,
  checkDomains,
  checkPathPrefix,
  checkWholeRule,
  checkWholeSubRule,
  newRuleValues,
  newSubRuleValues,
  ruleSpot,
  ruleToValues,
  subRuleSpot,
  subRuleToValues,
  valuesToRuleInput,
  valuesToSubRuleInput,
} from './ruleForm';
import {
  checkCidrList,
  checkHeaderName,
  checkMountPath,
  checkTargets,
  entryAt,
  panelOf,
  valuesToService,
} from './serviceForm';
import { ruleView, service, subRule } from './testData';

/** Echoes the key and the numbers, so the tests see which text was chosen. */
const t = (key: string, vars?: Record<string, unknown>) => `${key}${vars ? JSON.stringify(vars) : ''}`;

const refusal = (status: number, body: Record<string, unknown>) =>
  new ApiError('ret', String(body.msg), { status, ret: 1, reply: body as never });

describe('form ↔ API', () => {
  it('a new rule and sub rule start from the shared schema defaults', () => {
    const rule = newRuleValues();
    expect(rule).toMatchObject({ listenTypes: 'http', address: '', port: 16666, http2: true, http3: false });
    expect(rule.defaultRule).toMatchObject({ serviceType: 'proxy', targets: [], keepHost: true, websocket: true });
    expect(rule.defaultRule.cors.methods).toEqual(['POST', 'GET', 'PUT', 'OPTIONS', 'DELETE']);
    expect(rule.defaultRule.log).toEqual({ capacity: 1000, level: 4, toConsole: false, showLatest: 10 });
    expect(newSubRuleValues()).toMatchObject({ domains: [], pathPrefix: '/', serviceType: 'proxy' });
  });

  it('a listed rule round-trips through the form to what the schema accepts, sub rules kept by key', () => {
    const view = ruleView({
      address: '[::1]',
      defaultRule: service({ serviceType: 'text', text: 'hello {host}' }),
      subRules: [subRule({ basicAuth: { enabled: true, user: 'me', password: '******', paths: ['/admin'] } })],
    });
    const values = ruleToValues(view);
    expect(values).not.toHaveProperty('status');
    expect(values).not.toHaveProperty('lastLogs');
    expect(values).not.toHaveProperty('key');
    const input = valuesToRuleInput(values, view.subRules);
    expect(input.address).toBe('::1');
    // Sent back as read: the mask keeps the stored password.
    expect(input.subRules?.[0]).toMatchObject({
      key: 'SUB0000000000001',
      basicAuth: { user: 'me', password: '******' },
    });
    const parsed = reverseproxyRuleInputSchema.parse(input);
    expect(parsed.defaultRule).toEqual(
      reverseproxyRuleInputSchema.parse(valuesToRuleInput(ruleToValues(view))).defaultRule,
    );
  });

  it('a sub rule round-trips: masked password stays the mask, lists trimmed, blank lines dropped', () => {
    const sub = subRule({
      domains: ['App.Example.com', '*.example.org'],
      basicAuth: { enabled: true, user: 'me', password: '******', paths: [] },
    });
    const values = subRuleToValues(sub);
    expect(values.basicAuth).toEqual({ enabled: true, user: 'me', password: '******', paths: [] });
    const input = valuesToSubRuleInput({
      ...values,
      domains: [' App.Example.com ', '', '*.example.org', ''],
      targets: ['http://10.0.0.2:80 ', '', 'https://nas.lan'],
      pathPrefix: ' ',
    });
    expect(input).toMatchObject({
      domains: ['app.example.com', '*.example.org'],
      targets: ['http://10.0.0.2:80', 'https://nas.lan'],
      pathPrefix: '/',
    });
    const parsed = reverseproxySubRuleInputSchema.parse(input);
    expect(subRuleToValues({ ...subRule(), ...parsed, key: 'K' })).toMatchObject({
      domains: parsed.domains,
      targets: parsed.targets,
    });
  });

  it("keeps hidden settings from blocking a save: another type's bad entries, an off filter's list", () => {
    const v = {
      ...newSubRuleValues(),
      serviceType: 'text' as const,
      targets: ['not a url', 'http://ok.lan'],
      ipFilter: { mode: 'off' as const, list: ['10.0.0.0/8', 'bogus'] },
    };
    const out = valuesToService(v);
    expect(out.targets).toEqual(['http://ok.lan']);
    expect(out.ipFilter.list).toEqual(['10.0.0.0/8']);
    // Shown, they are sent as typed and the check names them.
    expect(valuesToService({ ...v, serviceType: 'proxy' }).targets).toEqual(['not a url', 'http://ok.lan']);
  });

  it('CORS methods are upper case and unique; empty header rows are dropped', () => {
    const out = valuesToService({
      ...newSubRuleValues(),
      cors: { enabled: true, origins: ['*', ' '], methods: ['get', 'GET', 'post'] },
      requestHeaders: [
        { name: ' X-A ', value: '1' },
        { name: '', value: '' },
      ],
    });
    expect(out.cors).toEqual({ enabled: true, origins: ['*'], methods: ['GET', 'POST'] });
    expect(out.requestHeaders).toEqual([{ name: 'X-A', value: '1' }]);
  });
});

describe('checks mirror the server', () => {
  it('listen address: empty or an IP (spec message)', () => {
    expect(checkAddress('')).toBeUndefined();
    expect(checkAddress('192.168.1.2')).toBeUndefined();
    expect(checkAddress('[fd00::1]')).toBeUndefined();
    expect(checkAddress('192.168.1.300')).toEqual({ code: 'listenAddressInvalid' });
    expect(checkAddress('nas.lan')).toEqual({ code: 'listenAddressInvalid' });
  });

  it('front-end domains: not empty, exact or one-level wildcard, at most 256', () => {
    expect(checkDomains([])).toEqual({ code: 'domainRequired' });
    expect(checkDomains(['', '  '])).toEqual({ code: 'domainRequired' });
    expect(checkDomains(['app.test', '*.example.com', '192.168.1.2'])).toBeUndefined();
    expect(checkDomains(['app.test', 'bad domain'])).toEqual({
      code: 'domainInvalid',
      params: { token: 'bad domain' },
    });
    expect(checkDomains(['*.*.example.com'])?.code).toBe('domainInvalid');
    expect(checkDomains(Array.from({ length: 257 }, (_, i) => `h${i}.test`))).toEqual({
      code: 'tooMany',
      params: { max: 256 },
    });
  });

  it('back ends: required for a sub rule, optional for the default rule, http(s) URLs only', () => {
    expect(checkTargets([], true)).toEqual({ code: 'targetRequired' });
    expect(checkTargets([''], false)).toBeUndefined();
    expect(checkTargets(['http://127.0.0.1:8080', 'https://[fd00::2]/base'], true)).toBeUndefined();
    expect(checkTargets(['ftp://x'], true)).toEqual({ code: 'targetInvalid', params: { token: 'ftp://x' } });
    expect(checkTargets(['http://x:70000'], true)?.code).toBe('targetInvalid');
  });

  it('paths, lists, header names', () => {
    expect(checkPathPrefix('api')).toEqual({ code: 'pathPrefixInvalid' });
    expect(checkPathPrefix('/api')).toBeUndefined();
    expect(checkMountPath('/a/../b')).toEqual({ code: 'mountPathInvalid' });
    expect(checkMountPath('')).toBeUndefined();
    expect(checkCidrList(['10.0.0.0/8', 'x'])).toEqual({ code: 'cidrInvalid', params: { token: 'x' } });
    expect(checkHeaderName('X-Ok')).toBeUndefined();
    expect(checkHeaderName('Bad Name')).toEqual({ code: 'headerInvalid', params: { token: 'Bad Name' } });
  });

  it('batch replace needs both domains, the new one valid', () => {
    expect(checkBatchField('oldDomain', '')).toMatchObject({ code: 'batchDomainRequired' });
    expect(checkBatchField('newDomain', ' ')).toMatchObject({ code: 'batchDomainRequired' });
    expect(checkBatchField('newDomain', 'new.example.com')).toBeUndefined();
    expect(checkBatchField('newDomain', 'not valid')).toMatchObject({ code: 'domainInvalid' });
  });

  it('the whole rule through the shared schema names the field', () => {
    const input = valuesToRuleInput({ ...newRuleValues(), port: 70000 });
    expect(checkWholeRule(input)).toEqual({ field: 'port', code: 'tooBig', params: { max: 65535 } });
    const redirect = valuesToRuleInput({
      ...newRuleValues(),
      defaultRule: { ...newRuleValues().defaultRule, serviceType: 'redirect' },
    });
    expect(checkWholeRule(redirect)).toEqual({ field: 'defaultRule.redirectTarget', code: 'redirectTargetRequired' });
    const files = valuesToSubRuleInput({
      ...newSubRuleValues(),
      domains: ['a.test'],
      serviceType: 'files',
      mounts: [{ urlPath: '/', type: 'local', dir: '', name: 'x' }],
    });
    expect(checkWholeSubRule(files)).toEqual({ field: 'mounts.0.dir', code: 'mountDirRequired' });
    const auth = valuesToSubRuleInput({
      ...newSubRuleValues(),
      domains: ['a.test'],
      targets: ['http://a.lan'],
      basicAuth: { enabled: true, user: '', password: '', paths: [] },
    });
    expect(checkWholeSubRule(auth)).toEqual({ field: 'basicAuth.user', code: 'basicAuthUserRequired' });
    // Every service type with its own fields filled passes.
    for (const serviceType of SERVICE_TYPES) {
      const ok = valuesToSubRuleInput({
        ...newSubRuleValues(),
        domains: ['a.test'],
        serviceType,
        targets: ['http://a.lan'],
        redirectTarget: 'https://b.test',
        mounts: [{ urlPath: '/', type: 'local', dir: '/srv', name: '' }],
      });
      expect(checkWholeSubRule(ok), serviceType).toBeUndefined();
    }
  });
});

describe('server answers → form fields and texts', () => {
  it('the shared schemas speak in codes: a code is one, its English wording is not matched back', () => {
    for (const code of Object.keys(REVERSEPROXY_MESSAGES)) expect(codeOfMessage(code)).toBe(code);
    expect(codeOfMessage(REVERSEPROXY_MESSAGES.domainRequired)).toBeUndefined();
  });

  it('reads the field, code and params out of a 400 answer', () => {
    const err = refusal(400, {
      ret: 1,
      msg: `subRules.0.domains.1: ${REVERSEPROXY_MESSAGES.domainInvalid.replace('{token}', 'a b')}`,
      field: 'subRules.0.domains.1',
      code: 'domainInvalid',
      params: { token: 'a b' },
    });
    expect(issueOfError(err)).toEqual({
      field: 'subRules.0.domains.1',
      code: 'domainInvalid',
      params: { token: 'a b' },
    });
    const listen = refusal(400, {
      ret: 1,
      msg: `address: ${REVERSEPROXY_MESSAGES.listenAddressInvalid}`,
      field: 'address',
      code: 'listenAddressInvalid',
    });
    expect(issueText(t, issueOfError(listen)!)).toBe(
      'reverseproxy.err_listenAddressInvalid{"token":"","rule":"","min":"?","max":"?","values":"","msg":"","line":"?"}',
    );
  });

  it('a port conflict names the other rule; an unknown code keeps the server wording on its field', () => {
    const conflict = refusal(409, {
      ret: 1,
      msg: 'port: another rule (web) listens on this address and port',
      field: 'port',
      code: 'portConflict',
      params: { rule: 'web' },
    });
    expect(issueOfError(conflict)).toEqual({ field: 'port', code: 'portConflict', params: { rule: 'web' } });
    const big = refusal(400, {
      ret: 1,
      msg: 'port: must be at most 65535',
      field: 'port',
      code: 'tooBig',
      params: { max: 65535 },
    });
    expect(issueOfError(big)).toEqual({ field: 'port', code: 'tooBig', params: { max: 65535 } });
    const other = refusal(400, { ret: 1, msg: 'port: Too big: expected number to be <=65535', field: 'port' });
    expect(issueOfError(other)).toEqual({
      field: 'port',
      code: 'server',
      params: { msg: 'Too big: expected number to be <=65535' },
    });
    const gone = refusal(404, {
      ret: 1,
      msg: `key: ${REVERSEPROXY_MESSAGES.ruleNotFound}`,
      field: 'key',
      code: 'ruleNotFound',
    });
    expect(issueOfError(gone)).toEqual({ field: 'key', code: 'ruleNotFound' });
    expect(issueOfError(new ApiError('timeout', 'x'))).toBeUndefined();
  });

  it('zod issues: too long text, too many entries, allowed values', () => {
    expect(issueOfSchema({ path: ['name'], message: 'x', code: 'too_big', origin: 'string', maximum: 64 })).toEqual({
      field: 'name',
      code: 'tooLong',
      params: { max: 64 },
    });
    expect(issueOfSchema({ path: ['targets'], message: 'x', code: 'too_big', origin: 'array', maximum: 32 })).toEqual({
      field: 'targets',
      code: 'tooMany',
      params: { max: 32 },
    });
  });

  it('finds the form item of a server path and the entry it names', () => {
    expect(ruleSpot('address')).toEqual({ name: ['address'] });
    expect(ruleSpot('defaultRule.targets.1')).toEqual({ name: ['defaultRule', 'targets'], index: 1 });
    expect(ruleSpot('defaultRule.basicAuth.user')).toEqual({ name: ['defaultRule', 'basicAuth', 'user'] });
    expect(ruleSpot('subRules.0.domains')).toBeUndefined();
    expect(subRuleSpot('domains.2')).toEqual({ name: ['domains'], index: 2 });
    expect(subRuleSpot('mounts.0.dir')).toEqual({ name: ['mounts', 0, 'dir'] });
    expect(subRuleSpot('ipFilter.list.0')).toEqual({ name: ['ipFilter', 'list'], index: 0 });
    expect(subRuleSpot('requestHeaders.1.name')).toEqual({ name: ['requestHeaders', 1, 'name'] });
    expect(subRuleSpot('port')).toBeUndefined();
    expect(entryAt({ targets: ['', ' http://a ', 'bad'] }, ['targets'], 1)).toBe('bad');
    expect(panelOf(['basicAuth', 'user'])).toBe('auth');
    expect(panelOf(['ipFilter', 'list'])).toBe('filter');
    expect(panelOf(['log', 'capacity'])).toBe('log');
    expect(panelOf(['targets'])).toBeUndefined();
  });
});

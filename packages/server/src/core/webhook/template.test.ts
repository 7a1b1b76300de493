// Request templates: variables escaped for where they land, the request built from the template,
// and the success test of an answer. The variables here are a caller's (DDNS's names).
import { describe, expect, it } from 'vitest';
import { buildTemplateRequest, fillTemplateVars, isJsonTemplate, isSuccessAnswer, localTime } from './template.js';

const vars = {
  ipAddr: '192.0.2.1',
  taskName: 'home "main"',
  successDomains: 'a.example.com,b.example.com',
  successDomainsLine: 'a.example.com\nb.example.com',
};

describe('template variables', () => {
  it('the usual #{time} is the local time for humans', () => {
    expect(localTime(new Date(2026, 11, 31, 23, 59, 9))).toBe('2026-12-31 23:59:09');
  });

  it('escapes for JSON so the receiver gets a real newline (not backslash-n text)', () => {
    const body = fillTemplateVars('{"text":"#{successDomainsLine}","name":"#{taskName}"}', vars, 'json');
    expect(body).toBe('{"text":"a.example.com\\nb.example.com","name":"home \\"main\\""}');
    expect(JSON.parse(body)).toEqual({ text: 'a.example.com\nb.example.com', name: 'home "main"' });
  });

  it('percent-encodes in URLs and form bodies, folds lines in headers, keeps unknown names', () => {
    expect(fillTemplateVars('https://h/x?d=#{successDomainsLine}&n=#{taskName}', vars, 'url')).toBe(
      'https://h/x?d=a.example.com%0Ab.example.com&n=home%20%22main%22',
    );
    expect(fillTemplateVars('d=#{successDomainsLine}&n=#{taskName}', vars, 'form')).toBe(
      'd=a.example.com%0Ab.example.com&n=home+%22main%22',
    );
    expect(fillTemplateVars('#{successDomainsLine}', vars, 'header')).toBe('a.example.com, b.example.com');
    expect(fillTemplateVars('#{nope} #{ipAddr}', vars, 'text')).toBe('#{nope} 192.0.2.1');
  });

  it('tells JSON bodies apart (placeholders inside strings allowed)', () => {
    expect(isJsonTemplate('{"a":"#{ipAddr}"}')).toBe(true);
    expect(isJsonTemplate(' [1, "#{x}"] ')).toBe(true);
    expect(isJsonTemplate('a=#{ipAddr}')).toBe(false);
    expect(isJsonTemplate('{"a": #{ipAddr}}')).toBe(false);
  });
});

describe('template requests', () => {
  it('builds JSON, form and raw bodies, basic auth from pseudo-headers, no body for GET', () => {
    const json = buildTemplateRequest(
      { method: 'post', url: 'https://h/#{ipAddr}', headers: ['X-Token: t1'], body: '{"ip":"#{ipAddr}"}' },
      vars,
    );
    expect(json).toEqual({
      method: 'POST',
      url: 'https://h/192.0.2.1',
      headers: { 'x-token': 't1', 'content-type': 'application/json' },
      body: '{"ip":"192.0.2.1"}',
    });
    const form = buildTemplateRequest(
      { method: 'PUT', url: 'https://h/', headers: [], body: 'ip=#{ipAddr}&d=#{successDomains}' },
      vars,
    );
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.body).toBe('ip=192.0.2.1&d=a.example.com%2Cb.example.com');
    const text = buildTemplateRequest(
      {
        method: 'POST',
        url: 'https://h/',
        headers: ['Content-Type:text/plain'],
        body: 'IP #{ipAddr}\n#{successDomainsLine}',
      },
      vars,
    );
    expect(text.body).toBe('IP 192.0.2.1\na.example.com\nb.example.com');
    const auth = buildTemplateRequest(
      {
        method: 'GET',
        url: 'https://h/',
        headers: ['BasicAuthUserName:u', 'BasicAuthPassword:p:w', 'bad header'],
        body: 'ignored',
      },
      vars,
    );
    expect(auth.headers).toEqual({ authorization: `Basic ${Buffer.from('u:p:w').toString('base64')}` });
    expect(auth.body).toBeUndefined();
  });

  it('succeeds on a 2xx answer containing a success string (variables filled), or any 2xx with the check off', () => {
    expect(isSuccessAnswer({ status: 200, text: 'good 192.0.2.1' }, ['good #{ipAddr}'], false, vars)).toBe(true);
    expect(isSuccessAnswer({ status: 200, text: 'good 192.0.2.9' }, ['good #{ipAddr}'], false, vars)).toBe(false);
    expect(isSuccessAnswer({ status: 500, text: 'good 192.0.2.1' }, ['good #{ipAddr}'], false, vars)).toBe(false);
    expect(isSuccessAnswer({ status: 204, text: '' }, [], true, vars)).toBe(true);
    expect(isSuccessAnswer({ status: 200, text: 'x' }, ['', ''], false, vars)).toBe(false);
  });
});

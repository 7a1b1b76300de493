// DDNS's webhook variables (the ancestor's names), filled into a template by the core.
import { describe, expect, it } from 'vitest';
import { fillTemplateVars } from '../../core/webhook/template.js';
import { demoVars, webhookVars } from './webhookVars.js';

const vars = webhookVars({
  ip: '192.0.2.1',
  taskName: 'home "main"',
  recordType: 'A',
  success: ['a.example.com', 'b.example.com'],
  failed: ['c.example.com'],
  now: new Date(2026, 0, 2, 3, 4, 5),
});

describe('DDNS webhook variables', () => {
  it('has the ancestor’s variables, with real line breaks in the …Line forms', () => {
    expect(vars).toMatchObject({
      ipAddr: '192.0.2.1',
      time: '2026-01-02 03:04:05',
      successDomains: 'a.example.com,b.example.com',
      failedDomains: 'c.example.com',
      successDomainsLine: 'a.example.com\nb.example.com',
      failedDomainsLine: 'c.example.com',
    });
    expect(
      webhookVars({
        ip: '',
        ipError: 'timeout',
        taskName: '',
        recordType: 'A',
        success: [],
        failed: [],
        now: new Date(),
      }).ipAddr,
    ).toBe('failed to get IP: timeout');
  });

  it('fill a JSON body so the receiver gets a real newline; the demo data uses documentation names', () => {
    const body = fillTemplateVars('{"text":"#{successDomainsLine}","name":"#{taskName}"}', vars, 'json');
    expect(JSON.parse(body)).toEqual({ text: 'a.example.com\nb.example.com', name: 'home "main"' });
    const demo = demoVars(new Date());
    expect(demo.ipAddr).toBe('198.51.100.66');
    expect(demo.successDomains.split(',').every((d) => d.endsWith('.example.com'))).toBe(true);
  });
});

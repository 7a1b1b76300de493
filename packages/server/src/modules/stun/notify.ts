// What a rule does when its public address is first seen or changes: run its script, call its
// webhook (or the global one when its own is off), and sync a DDNS task with the new address —
// each outcome coded for the rule's card and logged.
import type { Coded, StunProtocol, StunSettings, WebhookSettings, WebhookTestResponse } from '@lucky/shared';
import type { ModuleContext } from '../../core/modules/types.js';
import { HttpClients } from '../../core/outbound/client.js';
import { callWebhook, testWebhook } from '../../core/webhook/call.js';
import { callView, WebhookHistory } from '../../core/webhook/history.js';
import { localTime, type TemplateVars } from '../../core/webhook/template.js';
import type { RuleRunner } from './ruleRunner.js';
import { runScript } from './script.js';

export interface AddressChange {
  protocol: StunProtocol;
  innerIp: string;
  innerPort: number;
  outerIp: string;
  outerPort: number;
}

export interface NotifyOutcome {
  webhook?: Coded;
  script?: Coded;
  ddns?: Coded;
}

/**
 * Webhook variables of a STUN rule: #{ruleName} #{protocol} #{innerIp} #{innerPort} #{outerIp}
 * #{outerPort} #{outerAddr} (ip:port) #{time} #{timestamp}.
 */
export function stunVars(rule: string, c: AddressChange, now: Date): TemplateVars {
  return {
    ruleName: rule,
    protocol: c.protocol,
    innerIp: c.innerIp,
    innerPort: String(c.innerPort),
    outerIp: c.outerIp,
    outerPort: String(c.outerPort),
    outerAddr: `${c.outerIp}:${c.outerPort}`,
    time: localTime(now),
    timestamp: String(Math.floor(now.getTime() / 1000)),
  };
}

/** The "test webhook" button's addresses (documentation ranges only). */
const DEMO: AddressChange = {
  protocol: 'tcp',
  innerIp: '192.168.1.10',
  innerPort: 40000,
  outerIp: '198.51.100.66',
  outerPort: 40000,
};

export class StunNotifier {
  readonly history = new WebhookHistory();
  private readonly http = new HttpClients();

  constructor(
    private readonly ctx: ModuleContext,
    private readonly settings: () => StunSettings,
  ) {
    ctx.signal.addEventListener('abort', () => void this.http.close(), { once: true });
  }

  async notify(runner: RuleRunner, change: AddressChange): Promise<NotifyOutcome> {
    const rule = runner.rule();
    const out: NotifyOutcome = {};
    const [script, webhook, ddns] = await Promise.all([
      rule.script.trim() ? this.script(runner, change) : undefined,
      this.webhook(runner, change),
      rule.ddnsTask ? this.ddns(runner, change) : undefined,
    ]);
    if (script) out.script = script;
    if (webhook) out.webhook = webhook;
    if (ddns) out.ddns = ddns;
    return out;
  }

  private async script(runner: RuleRunner, c: AddressChange): Promise<Coded> {
    const rule = runner.rule();
    const r = await runScript(rule.script, { rule: rule.name, ...c }, runner.signal);
    if (r.code === 0) {
      runner.line(4, 'scriptRan', { code: 0, output: r.output });
      return { code: 'scriptOk', params: { output: r.output } };
    }
    const detail = r.timedOut ? 'timed out after 30 s' : `exit code ${r.code}${r.output ? `: ${r.output}` : ''}`;
    runner.line(3, 'scriptFailed', { detail });
    return { code: 'scriptFailed', params: { detail } };
  }

  private async webhook(runner: RuleRunner, c: AddressChange): Promise<Coded | undefined> {
    const rule = runner.rule();
    const w = rule.webhook.enabled ? rule.webhook : this.settings().webhook;
    if (!w.enabled) return undefined;
    const outcome = await callWebhook(w, stunVars(rule.name, c, new Date()), {
      http: this.http,
      signal: runner.signal,
      delay: (ms) => new Promise((r) => runner.setTimeout(r, ms)),
    });
    this.history.add(rule.key, callView(outcome, new Date()));
    if (outcome.ok) runner.line(4, 'webhookOk', { status: outcome.status ?? 0 });
    else runner.line(3, 'webhookFailed', { detail: outcome.reason.text });
    return { code: outcome.reason.code, params: outcome.reason.params ?? {} };
  }

  private async ddns(runner: RuleRunner, c: AddressChange): Promise<Coded> {
    const task = runner.rule().ddnsTask;
    const r = await this.ctx.actions.invoke('ddns', 'syncNow', { task, ipv4: c.outerIp });
    if (r.ok) {
      runner.line(4, 'ddnsSynced', { task, address: c.outerIp });
      return { code: 'ddnsSynced', params: { task, address: c.outerIp } };
    }
    const detail = r.detail ?? r.reason?.code ?? 'failed';
    runner.line(3, 'ddnsFailed', { task, detail });
    return { code: 'ddnsSyncFailed', params: { task, detail } };
  }

  /** POST /api/stun/webhook/test: one call with demo addresses; the answer scrubbed of secrets. */
  test(w: WebhookSettings): Promise<WebhookTestResponse> {
    return testWebhook(w, stunVars('demo', DEMO, new Date()), { http: this.http, signal: this.ctx.signal });
  }

  ddnsTasks(): Array<{ key: string; name: string }> {
    const a = this.ctx.actions.list().find((x) => x.module === 'ddns' && x.name === 'syncNow');
    return a?.targets ?? [];
  }
}

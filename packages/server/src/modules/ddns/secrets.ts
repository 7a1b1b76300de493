// Secrets never leave the server: reads show SECRET_MASK in their place, and a write that
// sends SECRET_MASK back keeps the stored value ('' clears it, anything else replaces it).
import { type DdnsSettings, type DdnsTask, type DdnsWebhook, SECRET_MASK } from '@lucky/shared';

const mask = (s: string) => (s ? SECRET_MASK : '');
const keep = (incoming: unknown, stored: string | undefined) => (incoming === SECRET_MASK ? (stored ?? '') : incoming);

function maskWebhook(w: DdnsWebhook): DdnsWebhook {
  return { ...w, proxy: { ...w.proxy, password: mask(w.proxy.password) } };
}

export function maskTask(t: DdnsTask): DdnsTask {
  return {
    ...t,
    dns: { ...t.dns, secret: mask(t.dns.secret) },
    proxy: { ...t.proxy, password: mask(t.proxy.password) },
    webhook: maskWebhook(t.webhook),
  };
}

export function maskSettings(s: DdnsSettings): DdnsSettings {
  return { ...s, webhook: maskWebhook(s.webhook) };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/** Puts stored secrets back where the input holds the mask (input not validated yet). */
export function restoreWebhookSecrets(input: unknown, stored?: DdnsWebhook): unknown {
  const w = obj(input);
  const p = obj(w?.proxy);
  if (!w || !p) return input;
  return { ...w, proxy: { ...p, password: keep(p.password, stored?.proxy.password) } };
}

export function restoreTaskSecrets(input: unknown, stored?: DdnsTask): unknown {
  const t = obj(input);
  if (!t) return input;
  const out: Obj = { ...t };
  const dns = obj(t.dns);
  if (dns) out.dns = { ...dns, secret: keep(dns.secret, stored?.dns.secret) };
  const proxy = obj(t.proxy);
  if (proxy) out.proxy = { ...proxy, password: keep(proxy.password, stored?.proxy.password) };
  if (t.webhook !== undefined) out.webhook = restoreWebhookSecrets(t.webhook, stored?.webhook);
  return out;
}

// Texts of the rule list: where a rule listens, what a service answers with,
// the runtime's warnings in the user's language.
import { isIpv6, REVERSEPROXY_WARNINGS, type ReverseproxyWarning } from '@lucky/shared';
import type { Translate } from './errors';
import type { ServiceView } from './types';

/** `[::1]:443` / `192.168.1.2:80` / `*:80` (empty address = every address). */
export function listenText(address: string, port: number): string {
  const host = address ? (isIpv6(address) ? `[${address}]` : address) : '*';
  return `${host}:${port}`;
}

const shorten = (s: string, max = 60) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** One line on what the service answers with: its back ends, target, folders or text. */
export function serviceTarget(
  s: Pick<ServiceView, 'serviceType' | 'targets' | 'redirectTarget' | 'redirectCode' | 'mounts' | 'text'>,
  t: Translate,
  isDefault = false,
): string {
  switch (s.serviceType) {
    case 'proxy':
      if (s.targets.length === 0) return isDefault ? t('reverseproxy.defaultNotFound') : '';
      return s.targets.length > 1
        ? t('reverseproxy.targetsMore', { first: s.targets[0], count: s.targets.length - 1 })
        : s.targets[0];
    case 'redirect':
      return `${s.redirectCode} → ${s.redirectTarget}`;
    case 'jump':
      return `→ ${s.redirectTarget}`;
    case 'files':
      return s.mounts.map((m) => (m.urlPath === '/' ? m.dir : `${m.urlPath} → ${m.dir}`)).join(', ');
    case 'text':
      return shorten(s.text.replace(/\s+/g, ' ').trim());
    case 'close':
      return '';
  }
}

const WARNING_BY_TEXT = new Map(
  (Object.entries(REVERSEPROXY_WARNINGS) as [ReverseproxyWarning, string][]).map(([k, v]) => [v, k]),
);

/** A status warning in the user's language; one this screen does not know stays as the server wrote it. */
export function warningText(text: string, t: Translate): string {
  const key = WARNING_BY_TEXT.get(text);
  if (key) return t(`reverseproxy.warn_${key}`);
  // "<known warning>: <detail>" (the detail, e.g. an iptables message, stays as it is).
  const colon = text.indexOf(': ');
  const head = colon > 0 ? WARNING_BY_TEXT.get(text.slice(0, colon)) : undefined;
  return head ? `${t(`reverseproxy.warn_${head}`)}: ${text.slice(colon + 2)}` : text;
}

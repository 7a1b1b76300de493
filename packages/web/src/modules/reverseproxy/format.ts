// Texts of the rule list: where a rule listens, what a service answers with.
import { isIpv6, type ReverseproxyServiceView } from '@lucky/shared';
import type { Translate } from './errors';

/** `[::1]:443` / `192.168.1.2:80` / `*:80` (empty address = every address). */
export function listenText(address: string, port: number): string {
  const host = address ? (isIpv6(address) ? `[${address}]` : address) : '*';
  return `${host}:${port}`;
}

const shorten = (s: string, max = 60) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** One line on what the service answers with: its back ends, target, folders or text. */
export function serviceTarget(
  s: Pick<ReverseproxyServiceView, 'serviceType' | 'targets' | 'redirectTarget' | 'redirectCode' | 'mounts' | 'text'>,
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

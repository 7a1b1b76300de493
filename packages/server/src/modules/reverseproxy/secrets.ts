// Header values towards the back end may carry credentials (Authorization, X-Api-Key, a token in
// any header): they are free text masked in their secret parts by shared/modules/secretText.ts
// (`Authorization: Bearer ******`, `X-Plain: visible` as it is); so are the header values the
// custom config's `proxy_set_header` / `add_header` lines carry (customConfigPieces, same rule).
// The basic-auth passwords are whole-value secrets (REVERSEPROXY_SECRETS) the supervisor keeps;
// this file does the same for the free text (REVERSEPROXY_FREE_TEXT_SECRETS): a read masks it,
// a write that sends the mask back gets the stored value.
import {
  customConfigPieces,
  headerPieces,
  maskPieces,
  type ReverseproxyService,
  restorePieces,
  reverseproxyIssues,
  SECRET_MASK,
} from '@lucky/shared';
import { fieldFailure } from '../../core/http/reply.js';

type Header = ReverseproxyService['requestHeaders'][number];
const line = (name: string, value: string) => `${name}:${value}`;

/** The value as a read shows it. */
export const maskHeaderValue = (h: Header): string =>
  maskPieces(headerPieces(line(h.name, h.value))).slice(h.name.length + 1);

/** A service with the secret parts of its request header values and of its custom config masked. */
export function maskFreeText<T extends ReverseproxyService>(s: T): T {
  const headers = s.requestHeaders.some((h) => h.value !== '');
  if (!headers && !s.customConfig) return s;
  return {
    ...s,
    ...(headers ? { requestHeaders: s.requestHeaders.map((h) => ({ ...h, value: maskHeaderValue(h) })) } : {}),
    ...(s.customConfig ? { customConfig: maskPieces(customConfigPieces(s.customConfig)) } : {}),
  };
}

const unmatched = (field: string) =>
  fieldFailure({
    field,
    code: 'secretMaskUnmatched',
    params: {},
    msg: reverseproxyIssues.describe('secretMaskUnmatched'),
  });

/**
 * `next` with the stored secrets put back where it sends a mask. Request headers: each is matched
 * with the stored header of the same name (in order). Custom config: the masks, in order, take
 * the stored text's secret parts. A mask that matches nothing stored is refused on its field
 * (`at` + `requestHeaders.<i>.value` / `customConfig`).
 */
export function keepFreeTextSecrets<T extends ReverseproxyService>(
  next: T,
  stored: ReverseproxyService | undefined,
  at = '',
): T {
  let out = next;
  if (next.customConfig.includes(SECRET_MASK)) {
    const customConfig = restorePieces(next.customConfig, customConfigPieces(stored?.customConfig ?? ''));
    if (customConfig === undefined) throw unmatched(`${at}customConfig`);
    out = { ...out, customConfig };
  }
  if (!next.requestHeaders.some((h) => h.value.includes(SECRET_MASK))) return out;
  const unused = [...(stored?.requestHeaders ?? [])];
  const requestHeaders = next.requestHeaders.map((h, i) => {
    if (!h.value.includes(SECRET_MASK)) return h;
    const same = unused.findIndex((o) => o.name.toLowerCase() === h.name.toLowerCase());
    const old = same >= 0 ? unused.splice(same, 1)[0] : undefined;
    const restored = old && restorePieces(line(h.name, h.value), headerPieces(line(old.name, old.value)));
    if (restored === undefined) throw unmatched(`${at}requestHeaders.${i}.value`);
    return { ...h, value: restored.slice(h.name.length + 1) };
  });
  return { ...out, requestHeaders };
}

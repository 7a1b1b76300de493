// Header values towards the back end may carry credentials (Authorization, X-Api-Key, a token in
// any header): they are free text masked in their secret parts by shared/modules/secretText.ts
// (`Authorization: Bearer ******`, `X-Plain: visible` as it is). The basic-auth passwords are
// whole-value secrets (REVERSEPROXY_SECRETS) the supervisor keeps; this file does the same for
// the header values: a read masks them, a write that sends the mask back gets the stored value.
import {
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

/** A service with the secret parts of its request header values masked. */
export function maskHeaders<T extends ReverseproxyService>(s: T): T {
  if (!s.requestHeaders.some((h) => h.value !== '')) return s;
  return { ...s, requestHeaders: s.requestHeaders.map((h) => ({ ...h, value: maskHeaderValue(h) })) };
}

/**
 * The request headers of `next` with the stored values put back where it sends a mask: each is
 * matched with the stored header of the same name (in order). A mask that matches nothing stored
 * is refused on its field (`at` + `requestHeaders.<i>.value`).
 */
export function keepHeaderSecrets<T extends ReverseproxyService>(
  next: T,
  stored: ReverseproxyService | undefined,
  at = '',
): T {
  if (!next.requestHeaders.some((h) => h.value.includes(SECRET_MASK))) return next;
  const unused = [...(stored?.requestHeaders ?? [])];
  const requestHeaders = next.requestHeaders.map((h, i) => {
    if (!h.value.includes(SECRET_MASK)) return h;
    const same = unused.findIndex((o) => o.name.toLowerCase() === h.name.toLowerCase());
    const old = same >= 0 ? unused.splice(same, 1)[0] : undefined;
    const restored = old && restorePieces(line(h.name, h.value), headerPieces(line(old.name, old.value)));
    if (restored === undefined) {
      throw fieldFailure({
        field: `${at}requestHeaders.${i}.value`,
        code: 'secretMaskUnmatched',
        params: {},
        msg: reverseproxyIssues.describe('secretMaskUnmatched'),
      });
    }
    return { ...h, value: restored.slice(h.name.length + 1) };
  });
  return { ...next, requestHeaders };
}

import { type AcmeReasonCode, acmeReasonText, type CodedText } from '@lucky/shared';

export type AcmeReason = CodedText & { code: AcmeReasonCode };

export function reason(code: AcmeReasonCode, params: Record<string, unknown>): AcmeReason {
  return { code, params, text: acmeReasonText(code, params) };
}

/** A step of an order failed for a reason the UI can say (never a bare internal error). */
export class OrderFailure extends Error {
  constructor(
    readonly reason: AcmeReason,
    /** The CA's Retry-After, when it gave one (the back-off waits at least this long). */
    readonly retryAfterMs = 0,
  ) {
    super(reason.text);
  }
}

/** Text of an unknown error, cut short for a reason's detail. */
export const detailOf = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 300);

import type { LoginRequest, LoginResponse, TwoFAStatusResponse } from '@lucky/shared';
import { ApiError, get, post } from '../../api/client';
import { setItem } from '../../api/storage';

/** `ret` values of POST /api/login (docs/API.md). */
export const LOGIN_RET_CODE_NEEDED = 2;
export const LOGIN_RET_THROTTLED = 3;

export type LoginOutcome =
  | { ok: true; token: string }
  | { ok: false; needCode: boolean; msg: string; retryAfter?: number; field?: string };

export async function login(req: LoginRequest): Promise<LoginOutcome> {
  try {
    // Silent: the form shows the server's reason itself, next to the right field.
    const r = await post<LoginResponse>('api/login', req, { auth: false, silent: true });
    return { ok: true, token: r.token };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const reply = err.reply as (ApiError['reply'] & { retryAfter?: unknown }) | undefined;
    return {
      ok: false,
      needCode: err.ret === LOGIN_RET_CODE_NEEDED,
      msg: err.message,
      retryAfter: typeof reply?.retryAfter === 'number' ? reply.retryAfter : undefined,
      field: reply?.field,
    };
  }
}

/** Whether the login needs a 2FA code; unknown (call failed) counts as "no" — the server asks with ret 2. */
export async function fetchTwoFAStatus(): Promise<boolean> {
  try {
    const r = await get<TwoFAStatusResponse>('2FAStatus', { auth: false, silent: true });
    setItem('twoFAEnable', Boolean(r.twoFAEnable));
    return Boolean(r.twoFAEnable);
  } catch {
    return false;
  }
}

export type TicketOutcome = { ok: true; token: string } | { ok: false; code?: string; msg: string };

/**
 * Signs in with a one-time login link's ticket (issued by `POST /api/login/link` for an API
 * token's owner, e.g. by a managing console). No auth header: the ticket is the credential.
 */
export async function loginWithTicket(ticket: string): Promise<TicketOutcome> {
  try {
    const r = await post<LoginResponse>('api/login/ticket', { ticket }, { auth: false, silent: true });
    return { ok: true, token: r.token };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ok: false, code: err.reply?.code, msg: err.message };
  }
}

// A one-time login link (`#/login?ticket=…`, made by another console that manages this one):
// the ticket is sent once, then dropped from the address so a reload or the history cannot
// send it again. Success signs in like a password login; a refusal (used, expired, unknown)
// leaves the password form with the reason above it.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { loginWithTicket } from './loginApi';

export type TicketState = { phase: 'none' } | { phase: 'pending' } | { phase: 'refused'; text: string };

/** Tickets this page has sent: a ticket works once, so a second mount (StrictMode) must not send it again. */
const sent = new Set<string>();

export function useTicketLogin(onSuccess: (token: string) => void): TicketState {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ticket = params.get('ticket') ?? '';
  const [state, setState] = useState<TicketState>(ticket ? { phase: 'pending' } : { phase: 'none' });
  const done = useRef(onSuccess);
  done.current = onSuccess;

  useEffect(() => {
    if (!ticket || sent.has(ticket)) return;
    sent.add(ticket);
    setState({ phase: 'pending' });
    // Out of the address at once: the fragment never reaches a server, but it stays in the history.
    navigate('/login', { replace: true });
    void loginWithTicket(ticket).then((r) => {
      if (r.ok) {
        done.current(r.token);
        return;
      }
      const text = r.code === 'ticketInvalid' ? t('login.ticketInvalid') : r.msg || t('login.ticketFailed');
      setState({ phase: 'refused', text });
    });
  }, [ticket, navigate, t]);

  return state;
}

import { type LoginLinkResponse, type LoginTicketResponse, loginTicketBodySchema } from '@lucky/shared';
import { LoginTickets } from '../auth/loginTickets.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { ApiFailure } from '../http/reply.js';
import { Attempt } from './attempt.js';

/**
 * The one-time login link: a caller holding this console's API token (a manager console) asks for
 * a ticket, the browser it opens posts the ticket back and gets a session like a password login.
 * The ticket rides in the URL's fragment (`#/login?ticket=…`), which browsers never send to a
 * server, so it is in no access log or Referer; a wrong ticket is a guess like a wrong password.
 */
export function registerLoginLinkRoutes(r: RouteRegistry, core: Core): void {
  const tickets = new LoginTickets(core.opts.clock ?? Date.now);

  r.add({
    method: 'POST',
    path: '/api/login/link',
    access: 'token',
    summary: 'Issue a one-time login ticket (60 s) for the admin account; the browser opens `path`',
    handler: (_req, _reply, ctx): LoginLinkResponse => {
      const config = core.store.get();
      const issuer = ctx.actor ?? config.base.adminAccount;
      const { ticket, expiresAt } = tickets.issue(config.base.adminAccount, issuer);
      const entrance = config.base.securityEntrance;
      core.log.info(`one-time login link issued to ${issuer} from ${ctx.clientIp}`);
      return {
        ret: 0,
        ticket,
        expiresAt: expiresAt.toISOString(),
        path: `${entrance ? `/${entrance}` : ''}/#/login?ticket=${encodeURIComponent(ticket)}`,
      };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/login/ticket',
    access: 'public',
    summary: 'Sign in with a one-time login ticket; answers a token like POST /api/login (401 ticketInvalid)',
    body: loginTicketBodySchema,
    handler: async (_req, _reply, input): Promise<LoginTicketResponse> => {
      // Counted before the check, like a password: a flood from one address locks it.
      const attempt = Attempt.begin(core, input.clientIp, 'ticket');
      try {
        const held = tickets.take(input.body.ticket);
        // Still the admin account? (renamed since the ticket was issued: refused)
        const config = core.store.get();
        if (!held || held.account !== config.base.adminAccount) {
          throw attempt.failed(
            'unknown, used or expired login ticket',
            new ApiFailure(401, 1, 'the login ticket is used, expired or unknown', 'ticket', {
              code: 'ticketInvalid',
            }),
          );
        }
        attempt.outcome = 'success';
        input.actor = `${held.account} (ticket of ${held.issuer})`;
        const { token } = await core.sessions.create(held.account, input.clientIp, config.base.tokenLifetimeHours);
        core.log.info(`admin signed in from ${input.clientIp} with a login ticket issued to ${held.issuer}`);
        return { ret: 0, msg: 'login successful', token };
      } finally {
        attempt.end();
      }
    },
  });
}

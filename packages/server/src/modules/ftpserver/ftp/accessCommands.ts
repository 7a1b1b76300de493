// Logging in and securing the session: USER / PASS (through the module's password checks with
// the login's per-address throttle), AUTH TLS, PBSZ, PROT, CCC, QUIT.
import { FTP_ANONYMOUS_NAMES } from '@lucky/shared';
import type { Command } from './commands.js';
import { FtpError } from './errors.js';
import type { FtpSession } from './session.js';

const isAnonymousName = (n: string) => (FTP_ANONYMOUS_NAMES as readonly string[]).includes(n.toLowerCase());

function requireTlsFirst(s: FtpSession): void {
  if (s.host.settings().tlsMode === 'required' && !s.tls)
    throw new FtpError(530, 'TLS is required: send AUTH TLS first');
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

async function pass(s: FtpSession, password: string): Promise<void> {
  if (s.user) throw new FtpError(503, 'Already logged in');
  const name = s.pendingUser;
  if (name === undefined) throw new FtpError(503, 'Send USER first');
  requireTlsFirst(s);
  s.pendingUser = undefined;
  s.loginUnderWay = true;
  try {
    await checkPass(s, name, password);
  } finally {
    s.loginUnderWay = false;
  }
}

async function checkPass(s: FtpSession, name: string, password: string): Promise<void> {
  const result = await s.host.login(s.ip, name, password);
  if (s.isClosed) return;
  if (result.ok) {
    s.loggedIn(result.user);
    s.host.loginCounted(true);
    s.host.log(4, 'loginOk', { client: s.client, user: result.user.name });
    s.reply(230, 'Login successful');
    return;
  }
  s.host.loginCounted(false);
  if (result.reason === 'locked') {
    const seconds = Math.ceil((result.retryAfterMs ?? 0) / 1000);
    s.host.log(3, 'loginLocked', { client: s.client, seconds });
    s.reply(421, `Too many failed logins from your address; try again in ${seconds} s`);
    s.close();
    return;
  }
  if (result.reason === 'busy') {
    s.reply(421, 'Too many logins at once from your address; try again later');
    s.close();
    return;
  }
  s.loginFailures++;
  s.host.log(3, 'loginFailed', { client: s.client, user: name });
  // The same pause for every failure, known user or not: one connection cannot guess fast.
  await delay(s.host.limits.failDelayMs);
  if (s.isClosed) return;
  s.reply(530, 'Login incorrect');
  // Auto-ban counted this guess (ctx.auth tells the lists): a banned address guesses no further here.
  if (!s.host.admits(s.ip)) {
    s.reply(421, 'Your address is refused; closing the connection');
    s.close();
    return;
  }
  if (s.loginFailures >= s.host.limits.maxLoginFailures) {
    s.host.log(3, 'tooManyFailures', { client: s.client, count: s.loginFailures });
    s.reply(421, 'Too many failed logins; closing the connection');
    s.close();
  }
}

export const ACCESS_COMMANDS: Record<string, Command> = {
  USER: {
    needsLogin: false,
    arg: 'required',
    run(s, arg) {
      if (s.user) throw new FtpError(503, 'Already logged in');
      requireTlsFirst(s);
      s.pendingUser = arg.trim();
      // The same answer whether the user exists or not.
      if (isAnonymousName(s.pendingUser)) s.reply(331, 'Anonymous login: send your e-mail address as the password');
      else s.reply(331, 'Password required');
    },
  },
  PASS: { needsLogin: false, run: (s, arg) => pass(s, arg) },
  ACCT: { needsLogin: false, run: (s) => s.reply(202, 'ACCT not needed') },
  REIN: { needsLogin: false, run: (s) => s.reply(502, 'REIN not implemented') },
  AUTH: {
    needsLogin: false,
    arg: 'required',
    async run(s, arg) {
      const mech = arg.trim().toUpperCase();
      if (s.host.settings().tlsMode === 'off') throw new FtpError(502, 'TLS is not offered');
      if (mech !== 'TLS' && mech !== 'TLS-C' && mech !== 'SSL')
        throw new FtpError(504, 'Security mechanism not understood');
      if (s.tls) throw new FtpError(503, 'TLS is already on');
      if (s.user) throw new FtpError(503, 'AUTH must come before the login');
      if (!s.host.tlsReady()) throw new FtpError(431, 'No certificate is available for TLS');
      await s.replyFlushed(234, `AUTH ${mech} successful`);
      await s.startTls();
    },
  },
  PBSZ: {
    needsLogin: false,
    arg: 'required',
    run(s) {
      if (!s.tls) throw new FtpError(503, 'PBSZ needs AUTH TLS first');
      s.pbsz = true;
      s.reply(200, 'PBSZ=0');
    },
  },
  PROT: {
    needsLogin: false,
    arg: 'required',
    run(s, arg) {
      if (!s.tls) throw new FtpError(503, 'PROT needs AUTH TLS first');
      const level = arg.trim().toUpperCase();
      if (level === 'P') {
        s.protectedData = true;
        s.reply(200, 'Protection level set to P');
      } else if (level === 'C') {
        if (s.host.settings().tlsMode === 'required') throw new FtpError(534, 'Data connections must be protected');
        s.protectedData = false;
        s.reply(200, 'Protection level set to C');
      } else if (level === 'S' || level === 'E') throw new FtpError(536, 'Protection level not supported');
      else throw new FtpError(504, 'Protection level not understood');
    },
  },
  CCC: { needsLogin: false, run: (s) => s.reply(534, 'CCC refused: the control connection stays encrypted') },
  QUIT: {
    needsLogin: false,
    run(s) {
      s.transfer?.abort.abort();
      s.reply(221, 'Goodbye');
      s.close();
    },
  },
};

// What the server says about itself and the session's options: FEAT, SYST, HELP, NOOP, OPTS,
// TYPE, MODE, STRU, ALLO, SITE, and STAT without an argument.
import type { Command } from './commands.js';
import { commandNames } from './commands.js';
import { FtpError } from './errors.js';
import { MLST_FACTS, type MlstFact, mlstFeature } from './listing.js';
import type { FtpSession } from './session.js';

function features(s: FtpSession): string[] {
  const tls = s.host.settings().tlsMode !== 'off' && s.host.tlsReady();
  return [
    'Features:',
    'UTF8',
    mlstFeature(s.mlstFacts),
    'SIZE',
    'MDTM',
    'MFMT',
    'REST STREAM',
    'EPSV',
    'TVFS',
    ...(tls ? ['AUTH TLS', 'PBSZ', 'PROT'] : []),
    'End',
  ];
}

function opts(s: FtpSession, arg: string): void {
  const [name = '', ...rest] = arg.trim().split(/\s+/);
  const what = name.toUpperCase();
  if (what === 'UTF8' || what === 'UTF-8') {
    if ((rest[0] ?? 'ON').toUpperCase() === 'OFF') throw new FtpError(504, 'UTF8 cannot be turned off');
    s.reply(200, 'UTF8 mode is always on');
    return;
  }
  if (what === 'MLST') {
    const asked = (rest[0] ?? '').toLowerCase().split(';');
    s.mlstFacts = new Set(MLST_FACTS.filter((f) => asked.includes(f)));
    s.reply(200, `MLST OPTS ${[...s.mlstFacts].map((f: MlstFact) => `${f};`).join('')}`);
    return;
  }
  throw new FtpError(501, 'Option not understood');
}

function status(s: FtpSession): void {
  const t = s.transfer;
  s.reply(211, [
    'FTP server status:',
    `Connected from ${s.client}`,
    s.user ? `Logged in as ${s.user.name}` : 'Not logged in',
    `TLS ${s.tls ? 'on' : 'off'}, data ${s.protectedData ? 'protected' : 'clear'}, TYPE I, STRU F, MODE S`,
    t ? `${t.verb} ${t.path}: ${t.bytes} bytes` : 'No transfer in progress',
    'End of status',
  ]);
}

export const INFO_COMMANDS: Record<string, Command> = {
  FEAT: { needsLogin: false, run: (s) => s.reply(211, features(s)) },
  SYST: { needsLogin: false, run: (s) => s.reply(215, 'UNIX Type: L8') },
  NOOP: { needsLogin: false, run: (s) => s.reply(200, 'NOOP ok') },
  HELP: {
    needsLogin: false,
    run: (s) => s.reply(214, ['The following commands are recognized:', commandNames().join(' '), 'Help OK']),
  },
  OPTS: { needsLogin: false, arg: 'required', run: opts },
  TYPE: {
    needsLogin: true,
    arg: 'required',
    run(s, arg) {
      // ASCII only changes nothing: listings are CRLF already, files go as they are (as pure-ftpd).
      const t = arg.trim().toUpperCase().replace(/\s+/g, ' ');
      if (t === 'A' || t === 'A N') s.reply(200, 'Type set to A');
      else if (t === 'I' || t === 'L 8') s.reply(200, 'Type set to I');
      else throw new FtpError(504, 'Type not supported');
    },
  },
  MODE: {
    needsLogin: true,
    arg: 'required',
    run(s, arg) {
      if (arg.trim().toUpperCase() !== 'S') throw new FtpError(504, 'Only stream mode is supported');
      s.reply(200, 'Mode set to S');
    },
  },
  STRU: {
    needsLogin: true,
    arg: 'required',
    run(s, arg) {
      if (arg.trim().toUpperCase() !== 'F') throw new FtpError(504, 'Only file structure is supported');
      s.reply(200, 'Structure set to F');
    },
  },
  ALLO: { needsLogin: true, run: (s) => s.reply(202, 'ALLO not needed') },
  SITE: {
    needsLogin: true,
    run(s, arg) {
      if (arg.trim().toUpperCase() === 'HELP') s.reply(214, 'No SITE commands are offered');
      // CHMOD and the rest: permissions come from the user's access, not from the client.
      else throw new FtpError(502, 'SITE commands are not supported');
    },
  },
};

export { status as sessionStatus };

// THE command table: every verb the server knows, whether it needs a login and an argument, and
// its handler. The handlers live by role in accessCommands (login, TLS), infoCommands (FEAT,
// SYST, OPTS …), pathCommands (folders, names, times) and transferCommands (passive, data).
import { ACCESS_COMMANDS } from './accessCommands.js';
import { INFO_COMMANDS } from './infoCommands.js';
import { PATH_COMMANDS } from './pathCommands.js';
import type { FtpSession } from './session.js';
import { TRANSFER_COMMANDS } from './transferCommands.js';

export interface CommandContext {
  verb: string;
  /** The virtual path RNFR named, when this command follows it directly. */
  renameFrom: string | undefined;
}

export interface Command {
  needsLogin: boolean;
  arg?: 'required';
  run(s: FtpSession, arg: string, ctx: CommandContext): void | Promise<void>;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  ...ACCESS_COMMANDS,
  ...INFO_COMMANDS,
  ...PATH_COMMANDS,
  ...TRANSFER_COMMANDS,
};

/** Verbs HELP lists. */
export const commandNames = (): string[] => Object.keys(COMMANDS).sort();

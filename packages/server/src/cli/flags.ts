import path from 'node:path';

export interface Flags {
  command: 'run' | 'reset-login' | 'help' | 'version';
  port?: number;
  configDir: string;
  host?: string;
  /** Run the server in this process (no restarting parent). */
  noSupervisor: boolean;
}

export const HELP = `Lucky console — home-server network console

Usage: lucky [command] [options]

Commands:
  (none)               start the console
  reset-login          reset the admin login to 666 / 666, turn 2FA off and end all sessions
                       (use it when the password is lost; the console must be restarted after)

Options:
  -p, --port <port>        admin port for this run (overrides the saved setting; default 16601)
  -cd, --config-dir <dir>  config directory, created if missing (default ./data)
  --host <address>         listen address (default: all addresses, IPv4 and IPv6)
  --no-supervisor          run without the restarting parent process
  -v, --version            print the version
  -h, --help               print this help
`;

export class FlagError extends Error {}

export function parseFlags(argv: string[], cwd = process.cwd()): Flags {
  const flags: Flags = { command: 'run', configDir: path.resolve(cwd, 'data'), noSupervisor: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('-')) throw new FlagError(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '-p':
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n < 1 || n > 65535) throw new FlagError(`${a}: "${v}" is not a port (1-65535)`);
        flags.port = n;
        break;
      }
      case '-cd':
      case '--config-dir':
        flags.configDir = path.resolve(cwd, value());
        break;
      case '--host':
        flags.host = value();
        break;
      case '--no-supervisor':
        flags.noSupervisor = true;
        break;
      case '-h':
      case '--help':
        flags.command = 'help';
        break;
      case '-v':
      case '--version':
        flags.command = 'version';
        break;
      case 'reset-login':
        flags.command = 'reset-login';
        break;
      default:
        throw new FlagError(`unknown option "${a}" (see --help)`);
    }
  }
  return flags;
}

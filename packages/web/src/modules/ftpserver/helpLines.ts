// What to type into each client, from the settings: the host a client reaches (the listening
// address when one is set, else the host this console was opened with), the port and the TLS
// mode. Plain-only clients (Windows Explorer, macOS Finder, most cameras and scanners) cannot log
// in while TLS is required; FTPS clients are told to require it while it is only offered.
import type { FtpTlsMode } from '@lucky/shared';
import { urlHost } from './format';

export type HelpClient = 'url' | 'ftpes' | 'filezilla' | 'lftp' | 'curl' | 'explorer' | 'finder';

export interface HelpLine {
  client: HelpClient;
  /** What to copy; absent when this client cannot connect in this mode (see `blocked`). */
  text?: string;
  /** The client needs plain FTP and TLS is required. */
  blocked?: boolean;
}

export interface HelpInput {
  /** The settings' listening address ('' = every address). */
  address: string;
  /** The host the console was reached at (window.location.hostname). */
  consoleHost: string;
  port: number;
  mode: FtpTlsMode;
  /** A user to put in commands (the first enabled one), else a placeholder. */
  user?: string;
}

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** The host clients should use. */
export function clientHost(address: string, consoleHost: string): string {
  return WILDCARDS.has(address) ? consoleHost.replace(/^\[|\]$/g, '') : address;
}

/** Shell quoting for a user name in a command line (the name has no spaces, but may hold quotes). */
const shellWord = (s: string) => (/^[A-Za-z0-9._@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function helpLines(i: HelpInput): HelpLine[] {
  const host = urlHost(clientHost(i.address, i.consoleHost));
  const rawHost = clientHost(i.address, i.consoleHost);
  const user = shellWord(i.user || 'USER');
  const plain = `ftp://${host}:${i.port}`;
  const tls = i.mode !== 'off';
  const plainOk = i.mode !== 'required';
  const lines: HelpLine[] = [];
  if (plainOk) lines.push({ client: 'url', text: plain });
  if (tls) lines.push({ client: 'ftpes', text: `ftpes://${host}:${i.port}` });
  lines.push({ client: 'filezilla', text: rawHost });
  lines.push({
    client: 'lftp',
    text: tls
      ? `lftp -u ${user} -p ${i.port} -e 'set ftp:ssl-force true; set ftp:ssl-protect-data true' ${rawHost}`
      : `lftp -u ${user} -p ${i.port} -e 'set ftp:ssl-allow false' ${rawHost}`,
  });
  lines.push({ client: 'curl', text: tls ? `curl --ssl-reqd -u ${user} ${plain}/` : `curl -u ${user} ${plain}/` });
  lines.push(plainOk ? { client: 'explorer', text: `${plain}/` } : { client: 'explorer', blocked: true });
  lines.push(plainOk ? { client: 'finder', text: plain } : { client: 'finder', blocked: true });
  return lines;
}

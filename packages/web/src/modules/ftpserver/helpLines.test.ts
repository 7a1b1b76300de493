import { describe, expect, it } from 'vitest';
import { clientHost, helpLines } from './helpLines';

const textOf = (lines: ReturnType<typeof helpLines>) => Object.fromEntries(lines.map((l) => [l.client, l.text]));

describe('connection help', () => {
  it('offered TLS: plain and ftpes:// addresses, FTPS commands, plain-only clients on the plain address', () => {
    const lines = helpLines({ address: '', consoleHost: '192.168.1.2', port: 2121, mode: 'explicit', user: 'alice' });
    expect(textOf(lines)).toEqual({
      url: 'ftp://192.168.1.2:2121',
      ftpes: 'ftpes://192.168.1.2:2121',
      filezilla: '192.168.1.2',
      lftp: "lftp -u alice -p 2121 -e 'set ftp:ssl-force true; set ftp:ssl-protect-data true' 192.168.1.2",
      curl: 'curl --ssl-reqd -u alice ftp://192.168.1.2:2121/',
      explorer: 'ftp://192.168.1.2:2121/',
      finder: 'ftp://192.168.1.2:2121',
    });
    expect(lines.some((l) => l.blocked)).toBe(false);
  });

  it('TLS off: no ftpes://, lftp told not to try TLS, curl plain', () => {
    const lines = helpLines({ address: '', consoleHost: 'nas.lan', port: 21, mode: 'off' });
    const t = textOf(lines);
    expect(t.ftpes).toBeUndefined();
    expect(t.lftp).toBe("lftp -u USER -p 21 -e 'set ftp:ssl-allow false' nas.lan");
    expect(t.curl).toBe('curl -u USER ftp://nas.lan:21/');
  });

  it('TLS required: no plain address, Explorer and Finder cannot connect', () => {
    const lines = helpLines({ address: '10.0.0.5', consoleHost: 'nas.lan', port: 2121, mode: 'required' });
    expect(lines.map((l) => l.client)).toEqual(['ftpes', 'filezilla', 'lftp', 'curl', 'explorer', 'finder']);
    expect(lines.find((l) => l.client === 'ftpes')?.text).toBe('ftpes://10.0.0.5:2121');
    expect(lines.filter((l) => l.blocked).map((l) => l.client)).toEqual(['explorer', 'finder']);
    expect(lines.find((l) => l.client === 'explorer')?.text).toBeUndefined();
  });

  it('a listening address wins over the console host; IPv6 goes in brackets in URLs only; odd user names are quoted', () => {
    expect(clientHost('0.0.0.0', 'nas.lan')).toBe('nas.lan');
    expect(clientHost('::', '[fd00::2]')).toBe('fd00::2');
    const t = textOf(
      helpLines({ address: 'fd00::5', consoleHost: 'nas.lan', port: 2121, mode: 'off', user: "o'neil" }),
    );
    expect(t.url).toBe('ftp://[fd00::5]:2121');
    expect(t.filezilla).toBe('fd00::5');
    expect(t.curl).toBe("curl -u 'o'\\''neil' ftp://[fd00::5]:2121/");
  });
});

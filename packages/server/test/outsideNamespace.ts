// A client outside the LAN for tests of address rules: a network namespace of the test's own,
// joined to this one by a veth pair numbered from a documentation range (the host's end is the
// gateway the client connects to; nothing else on the machine is touched).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface OutsideNamespace {
  /** The namespace's name (`ip netns exec <name> …` runs a client there). */
  name: string;
  /** The host's end: the address the client connects to. */
  gateway: string;
  /** The client's own address, as the console sees it. */
  outside: string;
  /**
   * curl from the namespace to `url` (extra arguments before it): the status and the body; status
   * 0 when there was no HTTP answer (the connection was reset or refused).
   */
  curl(url: string, args?: string[]): Promise<{ status: number; body: string }>;
  remove(): void;
}

/**
 * Makes the namespace (`tag` names it and its links: a few letters, unique per test file). `net`:
 * a /24 no other test file uses, from documentation ranges or RFC 2544's benchmarking 198.18.0.0/15
 * (never routed on the internet, not LAN to the console).
 */
export function outsideNamespace(
  tag: string,
  net: '198.51.100' | '203.0.113' | `198.18.${number}` | `198.19.${number}`,
): OutsideNamespace {
  const ns = `${tag}-${process.pid}`;
  const hostEnd = `${tag}${process.pid % 100000}a`;
  const nsEnd = `${tag}${process.pid % 100000}b`;
  const gateway = `${net}.1`;
  const outside = `${net}.2`;
  execFileSync('ip', ['netns', 'add', ns]);
  execFileSync('ip', ['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd, 'netns', ns]);
  execFileSync('ip', ['addr', 'add', `${gateway}/24`, 'dev', hostEnd]);
  execFileSync('ip', ['link', 'set', hostEnd, 'up']);
  execFileSync('ip', ['-n', ns, 'addr', 'add', `${outside}/24`, 'dev', nsEnd]);
  execFileSync('ip', ['-n', ns, 'link', 'set', nsEnd, 'up']);
  execFileSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  return {
    name: ns,
    gateway,
    outside,
    async curl(url, args = []) {
      try {
        const { stdout } = await run('ip', [
          'netns',
          'exec',
          ns,
          'curl',
          '-s',
          '-S',
          '--max-time',
          '10',
          '-o',
          '-',
          '-w',
          '\n%{http_code}',
          ...args,
          url,
        ]);
        const cut = stdout.lastIndexOf('\n');
        return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
      } catch {
        return { status: 0, body: '' };
      }
    },
    remove() {
      execFileSync('ip', ['link', 'del', hostEnd]);
      execFileSync('ip', ['netns', 'del', ns]);
    },
  };
}

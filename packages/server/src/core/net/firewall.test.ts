// Against real iptables / ip6tables, in a network namespace of the test's own (never the host's
// tables). The set-up installs iptables (scripts/ensure-system-deps.sh); the tests run as root.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logs/logger.js';
import { HostFirewall, splitRule } from './firewall.js';

const NS = `lkfw-${process.pid}`;
const inNs = (tool: string, ...args: string[]) =>
  execFileSync('ip', ['netns', 'exec', NS, tool, ...args], { encoding: 'utf8' });
const ours = (tool = 'iptables') =>
  inNs(tool, '-S', 'INPUT')
    .split('\n')
    .filter((l) => l.includes('lucky:'));
const log = createLogger({ stdout: false });

beforeAll(() => {
  execFileSync('ip', ['netns', 'add', NS]);
});
afterAll(() => {
  execFileSync('ip', ['netns', 'del', NS]);
});

describe('HostFirewall (real iptables in a namespace)', () => {
  it('opens ports in both families, moves and closes them, leaving the operator’s rules alone', async () => {
    inNs('iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '22', '-j', 'ACCEPT');
    const fw = new HostFirewall(log, ['ip', 'netns', 'exec', NS]);
    expect(await fw.set('reverseproxy:a', [{ proto: 'tcp', port: 8443 }])).toEqual({ ok: true });
    expect(ours()).toEqual([
      '-A INPUT -p tcp -m tcp --dport 8443 -m comment --comment "lucky:reverseproxy:a" -j ACCEPT',
    ]);
    expect(ours('ip6tables')).toHaveLength(1);
    // Same again: no duplicate.
    await fw.set('reverseproxy:a', [{ proto: 'tcp', port: 8443 }]);
    expect(ours()).toHaveLength(1);
    // The rule moves to another port; a second owner opens its own.
    await fw.set('reverseproxy:a', [{ proto: 'tcp', port: 9443 }]);
    await fw.set('reverseproxy:b', [{ proto: 'udp', port: 5353 }]);
    expect(ours().join('\n')).toMatch(/--dport 9443 .*lucky:reverseproxy:a/);
    expect(ours().join('\n')).toMatch(/-p udp .*--dport 5353 .*lucky:reverseproxy:b/);
    expect(ours().join('\n')).not.toContain('8443');
    await fw.closeAll();
    expect(ours()).toEqual([]);
    expect(ours('ip6tables')).toEqual([]);
    expect(inNs('iptables', '-S', 'INPUT')).toContain('--dport 22 -j ACCEPT');
  });

  it('sweeps what a crashed run left behind at its first use', async () => {
    inNs(
      'iptables',
      '-I',
      'INPUT',
      '-p',
      'tcp',
      '--dport',
      '7000',
      '-m',
      'comment',
      '--comment',
      'lucky:reverseproxy:old',
      '-j',
      'ACCEPT',
    );
    inNs(
      'ip6tables',
      '-I',
      'INPUT',
      '-p',
      'tcp',
      '--dport',
      '7000',
      '-m',
      'comment',
      '--comment',
      'lucky:reverseproxy:old',
      '-j',
      'ACCEPT',
    );
    const fw = new HostFirewall(log, ['ip', 'netns', 'exec', NS]);
    await fw.set('reverseproxy:new', [{ proto: 'tcp', port: 7001 }]);
    expect(ours().join('\n')).not.toContain('7000');
    expect(ours('ip6tables').join('\n')).not.toContain('7000');
    expect(ours().join('\n')).toContain('7001');
    await fw.closeAll();
  });

  it('says why when it cannot open the port', async () => {
    const fw = new HostFirewall(log, ['ip', 'netns', 'exec', 'lucky-no-such-namespace']);
    const r = await fw.set('reverseproxy:x', [{ proto: 'tcp', port: 8080 }]);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/iptables/);
    const none = new HostFirewall(log, ['env', 'PATH=/nonexistent']);
    const r2 = await none.set('reverseproxy:x', [{ proto: 'tcp', port: 8080 }]);
    expect(r2).toEqual({ ok: false, reason: expect.stringMatching(/iptables/) });
  });

  it('splits iptables -S lines with quoted comments', () => {
    expect(splitRule('INPUT -p tcp --comment "lucky:a b" -j ACCEPT')).toEqual([
      'INPUT',
      '-p',
      'tcp',
      '--comment',
      'lucky:a b',
      '-j',
      'ACCEPT',
    ]);
  });
});

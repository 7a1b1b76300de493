// Firewall auto-allow against real iptables / ip6tables, in a network namespace of the test's own
// (LUCKY_FIREWALL_NETNS makes the server run its iptables calls there; the host's tables are never
// touched). Needs root and iptables, which the set-up installs.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Rp, startRp } from './reverseproxy-helpers.js';

const NS = `lkfw-rp-${process.pid}`;
const opened = (tool = 'iptables') =>
  execFileSync('ip', ['netns', 'exec', NS, tool, '-S', 'INPUT'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('lucky:reverseproxy:'));
let rp: Rp;

beforeAll(async () => {
  execFileSync('ip', ['netns', 'add', NS]);
  process.env.LUCKY_FIREWALL_NETNS = NS;
  rp = await startRp();
});
afterAll(async () => {
  await rp.close();
  delete process.env.LUCKY_FIREWALL_NETNS;
  execFileSync('ip', ['netns', 'del', NS]);
});

describe('firewall auto-allow', () => {
  it('opens the port while the rule runs, follows a port change, closes it when off or deleted', async () => {
    const port = await freePort();
    const { key, rule } = await rp.addRule({
      port,
      firewallAutoAllow: true,
      defaultRule: { serviceType: 'text', text: 'x' },
    });
    expect(rule.status.warnings).toEqual([]);
    expect(opened()).toEqual([
      `-A INPUT -p tcp -m tcp --dport ${port} -m comment --comment "lucky:reverseproxy:${key}" -j ACCEPT`,
    ]);
    expect(opened('ip6tables')).toHaveLength(1);

    const other = await freePort();
    const moved = await rp.call('PUT', `/api/reverseproxy/rules/${key}`, { ...rule, port: other });
    expect(moved.body.ret).toBe(0);
    expect(opened().join('\n')).toContain(`--dport ${other} `);
    expect(opened().join('\n')).not.toContain(`--dport ${port} `);

    expect((await rp.call('PUT', `/api/reverseproxy/rules/${key}/enable`, { enabled: false })).body.ret).toBe(0);
    expect(opened()).toEqual([]);
    expect((await rp.call('PUT', `/api/reverseproxy/rules/${key}/enable`, { enabled: true })).body.ret).toBe(0);
    expect(opened()).toHaveLength(1);
    // Switched off in the rule: closed, the rule keeps serving.
    const off = await rp.call('PUT', `/api/reverseproxy/rules/${key}`, {
      ...rule,
      port: other,
      firewallAutoAllow: false,
    });
    expect(off.body.rule.status.state).toBe('running');
    expect(opened()).toEqual([]);
    await rp.call('PUT', `/api/reverseproxy/rules/${key}`, { ...rule, port: other });
    expect(opened()).toHaveLength(1);
    expect((await rp.call('DELETE', `/api/reverseproxy/rules/${key}`)).body.ret).toBe(0);
    expect(opened()).toEqual([]);
    expect(opened('ip6tables')).toEqual([]);
  });

  it('serves anyway and says why when the firewall cannot be opened', async () => {
    process.env.LUCKY_FIREWALL_NETNS = 'lucky-no-such-namespace';
    const failing = await startRp();
    try {
      const port = await freePort();
      const { rule } = await failing.addRule({
        port,
        firewallAutoAllow: true,
        defaultRule: { serviceType: 'text', text: 'x' },
      });
      expect(rule.status.state).toBe('running');
      expect(rule.status.warnings).toEqual([
        expect.objectContaining({
          code: 'firewallFailed',
          params: expect.objectContaining({ port, detail: expect.stringMatching(/^iptables/) }),
          text: expect.stringMatching(/^the host firewall could not be opened for this port: iptables/),
        }),
      ]);
    } finally {
      await failing.close();
      process.env.LUCKY_FIREWALL_NETNS = NS;
    }
  });
});

import { wolSettingsSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { checkSettings, settingsFieldOf, settingsPatch, settingsToValues } from './settingsForm';

const stored = wolSettingsSchema.parse({});

describe('Wake-on-LAN settings form as data', () => {
  it('sends only what changed, the agent block as a whole', () => {
    const v = settingsToValues(stored);
    expect(settingsPatch(stored, v)).toEqual({});
    expect(settingsPatch(stored, { ...v, refreshSec: 10 })).toEqual({ refreshSec: 10 });
    const agent = { ...v.agent, shutdownEnabled: true, shutdownCommand: ' systemctl poweroff ' };
    expect(settingsPatch(stored, { ...v, agent })).toEqual({
      agent: { shutdownEnabled: true, shutdownCommand: 'systemctl poweroff', relayEnabled: false },
    });
  });

  it('refuses with the server’s codes: agent shutdown without a command, an interval out of range', () => {
    const v = settingsToValues(stored);
    const patch = settingsPatch(stored, { ...v, refreshSec: 1, agent: { ...v.agent, shutdownEnabled: true } });
    expect(checkSettings(patch).map((f) => [f.field, f.code])).toEqual([
      ['refreshSec', 'tooSmall'],
      ['agent.shutdownCommand', 'commandRequired'],
    ]);
    expect(settingsFieldOf('agent.shutdownCommand')).toEqual(['agent', 'shutdownCommand']);
    expect(settingsFieldOf('webhook.headers.2')).toEqual(['webhook', 'headers']);
    expect(settingsFieldOf('devices.0.name')).toBeUndefined();
  });
});

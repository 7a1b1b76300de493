// The settings dialog as data: form values from the stored settings, the patch that is sent (only
// what changed; the webhook and the agent block as wholes), and the check before sending (the
// schema the server parses with, answered with its codes).
import { type WolSettings, type WolSettingsPatch, wolIssues, wolSettingsPatchSchema } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import {
  newWebhookValues,
  valuesToWebhook,
  type WebhookFormValues,
  webhookToValues,
} from '../../components/webhook/webhookForm';

export interface SettingsFormValues extends Omit<WolSettings, 'webhook'> {
  webhook: WebhookFormValues;
}

export const SETTINGS_FIELDS = ['refreshSec', 'checkTimeoutSec', 'webhook', 'agent'] as const;

export function settingsToValues(s: WolSettings): SettingsFormValues {
  return { ...s, agent: { ...s.agent }, webhook: webhookToValues(s.webhook, newWebhookValues()) };
}

/** The whole settings as the form holds them, in the API's shape. */
export function valuesToSettings(v: SettingsFormValues): WolSettings {
  return {
    refreshSec: v.refreshSec,
    checkTimeoutSec: v.checkTimeoutSec,
    webhook: valuesToWebhook<WolSettings['webhook']>(v.webhook),
    agent: {
      shutdownEnabled: v.agent.shutdownEnabled,
      shutdownCommand: (v.agent.shutdownCommand ?? '').trim(),
      relayEnabled: v.agent.relayEnabled,
    },
  };
}

/** The fields whose value differs from the stored one. */
export function settingsPatch(stored: WolSettings, v: SettingsFormValues): WolSettingsPatch {
  const next = valuesToSettings(v);
  const patch: Record<string, unknown> = {};
  for (const k of SETTINGS_FIELDS) if (JSON.stringify(next[k]) !== JSON.stringify(stored[k])) patch[k] = next[k];
  return patch as WolSettingsPatch;
}

/** Every problem the server would name in this patch, with its field and code. */
export function checkSettings(patch: WolSettingsPatch): Failure[] {
  const r = wolSettingsPatchSchema.safeParse(patch);
  if (r.success) return [];
  return r.error.issues.map((i) => {
    const { field, code, params } = wolIssues.fromZod(i, wolSettingsPatchSchema);
    return { field, code, params };
  });
}

/** The dialog's item of a server path: list entries belong to their list's box. */
export function settingsFieldOf(field: string): (string | number)[] | undefined {
  const out: string[] = [];
  for (const part of field.split('.')) {
    if (/^\d+$/.test(part)) break;
    out.push(part);
  }
  return out.length > 0 && (SETTINGS_FIELDS as readonly string[]).includes(out[0] as string) ? out : undefined;
}

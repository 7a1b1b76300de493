// The global settings dialog as data: form values from the stored settings, the patch that is
// sent (only what changed), and the check before sending (the schema the server parses with).
import { type StunSettings, type StunSettingsPatch, stunIssues, stunSettingsPatchSchema } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import {
  newWebhookValues,
  valuesToWebhook,
  type WebhookFormValues,
  webhookToValues,
} from '../../components/webhook/webhookForm';

export interface SettingsFormValues extends Omit<StunSettings, 'stunServers' | 'webhook'> {
  /** One per line, as typed. */
  stunServers: string[];
  webhook: WebhookFormValues;
}

export const SETTINGS_FIELDS = ['enabled', 'stunServers', 'keepAliveUrl', 'heartbeatSec', 'retrySec', 'webhook'];

export function settingsToValues(s: StunSettings): SettingsFormValues {
  return { ...s, stunServers: [...s.stunServers], webhook: webhookToValues(s.webhook, newWebhookValues()) };
}

/** The whole settings as the form holds them, in the API's shape. */
export function valuesToSettings(v: SettingsFormValues): StunSettings {
  return {
    enabled: v.enabled,
    stunServers: v.stunServers.map((s) => s.trim()).filter(Boolean),
    keepAliveUrl: (v.keepAliveUrl ?? '').trim(),
    heartbeatSec: v.heartbeatSec,
    retrySec: v.retrySec,
    webhook: valuesToWebhook<StunSettings['webhook']>(v.webhook),
  };
}

/** The fields whose value differs from the stored one (the webhook as a whole). */
export function settingsPatch(stored: StunSettings, v: SettingsFormValues): StunSettingsPatch {
  const next = valuesToSettings(v);
  const patch: Record<string, unknown> = {};
  for (const k of SETTINGS_FIELDS as (keyof StunSettings)[])
    if (JSON.stringify(next[k]) !== JSON.stringify(stored[k])) patch[k] = next[k];
  return patch as StunSettingsPatch;
}

/** Every problem the server would name in this patch, with its field and code. */
export function checkSettings(patch: StunSettingsPatch): Failure[] {
  const r = stunSettingsPatchSchema.safeParse(patch);
  if (r.success) return [];
  return r.error.issues.map((i) => {
    const { field, code, params } = stunIssues.fromZod(i, stunSettingsPatchSchema);
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
  return out.length > 0 && SETTINGS_FIELDS.includes(out[0] as string) ? out : undefined;
}

// The global settings dialog as data: form values from the stored settings, the patch that is
// sent (only what changed), and the check before sending (the schema the server parses with).
import { type StunSettings, type StunSettingsPatch, stunIssues, stunSettingsPatchSchema } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import { changedFields, listItemOf, schemaFailures } from '../../components/form/settingsForm';
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

export const SETTINGS_FIELDS = [
  'enabled',
  'stunServers',
  'keepAliveUrl',
  'heartbeatSec',
  'retrySec',
  'webhook',
] as const satisfies readonly (keyof StunSettings)[];

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
  return changedFields(stored, valuesToSettings(v), SETTINGS_FIELDS);
}

/** Every problem the server would name in this patch, with its field and code. */
export function checkSettings(patch: StunSettingsPatch): Failure[] {
  return schemaFailures(stunSettingsPatchSchema, stunIssues, patch);
}

/** The dialog's item of a server path: list entries belong to their list's box. */
export const settingsFieldOf = listItemOf(SETTINGS_FIELDS);

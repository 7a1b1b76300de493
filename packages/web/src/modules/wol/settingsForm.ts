// The settings dialog as data: form values from the stored settings, the patch that is sent (only
// what changed; the webhook and the agent block as wholes), and the check before sending (the
// schema the server parses with, answered with its codes).
import { type WolSettings, type WolSettingsPatch, wolIssues, wolSettingsPatchSchema } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import { changedFields, listItemOf, schemaFailures } from '../../components/form/settingsForm';
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
  return changedFields(stored, valuesToSettings(v), SETTINGS_FIELDS);
}

/** Every problem the server would name in this patch, with its field and code. */
export function checkSettings(patch: WolSettingsPatch): Failure[] {
  return schemaFailures(wolSettingsPatchSchema, wolIssues, patch);
}

/** The dialog's item of a server path: list entries belong to their list's box. */
export const settingsFieldOf = listItemOf(SETTINGS_FIELDS);

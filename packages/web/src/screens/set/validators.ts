// Form rules backed by the same zod schema the server validates with, so both
// reject the same input; the message shown comes from the locale files.
import { baseConfigurePutSchema, baseSettingsSchema, isHostName } from '@lucky/shared';
import type { Rule } from 'antd/es/form';

type SettingsField = keyof typeof baseSettingsSchema.shape;

export function settingRule(field: SettingsField, message: string): Rule {
  return {
    validator: (_, value) =>
      baseSettingsSchema.shape[field].safeParse(value).success ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

export function newPasswordRule(message: string): Rule {
  return {
    validator: (_, value) =>
      value === undefined || value === '' || baseConfigurePutSchema.shape.newPassword.safeParse(value).success
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Admin host names (DNS rebinding allow-list): rejects the first entry that is not a host name, naming it. */
export function hostNamesRule(t: (k: string, o?: Record<string, unknown>) => string): Rule {
  return {
    validator: (_, value: string[] | undefined) => {
      const list = value ?? [];
      const bad = list.find((n) => !isHostName(n.trim().replace(/\.$/, '')));
      if (bad !== undefined) return Promise.reject(new Error(t('set.adminHostNamesInvalid', { value: bad })));
      if (list.length > 64) return Promise.reject(new Error(t('set.trustedProxiesTooMany', { max: 64 })));
      return Promise.resolve();
    },
  };
}

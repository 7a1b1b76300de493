// The settings dialog as data: form values from the stored settings, the patch that is sent (only
// the sections that changed), and the check before sending — the whole config schema the server
// parses with (its cross-field checks too: the passive range against the control port), run over
// these settings and the stored mounts and users.
import {
  type FtpserverConfig,
  type FtpserverMount,
  type FtpserverSettings,
  type FtpserverSettingsPatch,
  type FtpserverUser,
  ftpserverConfigSchema,
  ftpserverIssues,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import { changedFields, schemaFailures } from '../../components/form/settingsForm';

export interface SettingsFormValues extends Omit<FtpserverSettings, 'anonymous'> {
  /** The anonymous login's mounts as a list of keys (every one read-only). */
  anonymous: { enabled: boolean; mounts: string[] };
}

/** The top-level settings fields, in the order the dialog shows them. */
export const SETTINGS_FIELDS = [
  'enabled',
  'port',
  'address',
  'passive',
  'tls',
  'idleTimeoutSec',
  'loginTimeoutSec',
  'maxConnections',
  'perAddressMaxConnections',
  'lanOnly',
  'allowList',
  'blockList',
  'anonymous',
  'logLevel',
  'logCapacity',
] as const satisfies readonly (keyof FtpserverSettings)[];

export function settingsToValues(s: FtpserverSettings): SettingsFormValues {
  return {
    ...s,
    passive: { ...s.passive },
    tls: { ...s.tls },
    allowList: [...s.allowList],
    blockList: [...s.blockList],
    anonymous: { enabled: s.anonymous.enabled, mounts: Object.keys(s.anonymous.access) },
  };
}

const cleanList = (l: string[] | undefined) => [...new Set((l ?? []).map((s) => s.trim()).filter(Boolean))];
const text = (v: unknown) => String(v ?? '').trim();

/** The whole settings as the form holds them, in the API's shape. */
export function valuesToSettings(v: SettingsFormValues): FtpserverSettings {
  return {
    enabled: v.enabled,
    port: v.port,
    address: text(v.address),
    passive: {
      portMin: v.passive.portMin,
      portMax: v.passive.portMax,
      announceAddress: text(v.passive.announceAddress),
      announceForLan: v.passive.announceForLan,
    },
    tls: { mode: v.tls.mode, certificate: text(v.tls.certificate).toLowerCase() },
    idleTimeoutSec: v.idleTimeoutSec,
    loginTimeoutSec: v.loginTimeoutSec,
    maxConnections: v.maxConnections,
    perAddressMaxConnections: v.perAddressMaxConnections,
    lanOnly: v.lanOnly,
    allowList: cleanList(v.allowList),
    blockList: cleanList(v.blockList),
    anonymous: {
      enabled: v.anonymous.enabled,
      access: Object.fromEntries((v.anonymous.mounts ?? []).map((k) => [k, 'ro' as const])),
    },
    logLevel: v.logLevel,
    logCapacity: v.logCapacity,
  };
}

/** The fields whose value differs from the stored one (a section as a whole). */
export function settingsPatch(stored: FtpserverSettings, v: SettingsFormValues): FtpserverSettingsPatch {
  return changedFields(stored, valuesToSettings(v), SETTINGS_FIELDS);
}

/** The stored mounts without what their view adds (storage name, availability). */
const plainMount = ({ key, name, storage, enabled }: FtpserverMount): FtpserverMount => ({
  key,
  name,
  storage,
  enabled,
});

/**
 * Every problem the server would name in these settings, with its field and code. Mounts and
 * users are the stored ones: only problems of the settings' own fields are answered.
 */
export function checkSettings(
  settings: FtpserverSettings,
  mounts: readonly FtpserverMount[],
  users: readonly FtpserverUser[],
): Failure[] {
  const config: FtpserverConfig = { ...settings, mounts: mounts.map(plainMount), users: [...users] };
  return schemaFailures(ftpserverConfigSchema, ftpserverIssues, config).filter(
    (f) => settingsFieldOf(f.field ?? '') !== undefined,
  );
}

/** The dialog's item of a server path: list entries belong to their list's box, the anonymous mounts to their picker. */
export function settingsFieldOf(field: string): (string | number)[] | undefined {
  const [top, sub] = field.split('.');
  if (!(SETTINGS_FIELDS as readonly string[]).includes(top ?? '')) return undefined;
  if (top === 'passive' || top === 'tls') return sub ? [top, sub] : [top];
  if (top === 'anonymous') return sub === 'enabled' ? ['anonymous', 'enabled'] : ['anonymous', 'mounts'];
  return [top as string];
}

/** The first problem a form item shows (`name` as the dialog names it). */
export function issueOfItem(issues: readonly Failure[], name: readonly (string | number)[]): Failure | undefined {
  const want = name.join('.');
  return issues.find((i) => settingsFieldOf(i.field ?? '')?.join('.') === want);
}

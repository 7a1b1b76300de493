// The device dialog as data, free of React so it is unit-tested: the values a new device starts
// with (the shared schema's own defaults), the conversions to and from the API shapes, the check
// before sending (the schema the server parses with, answered with its codes, plus unique names),
// the check of the MAC list as it is typed, and where a server path sits in the dialog.
import {
  type WolDevice,
  type WolDeviceInput,
  type WolDeviceView,
  type WolShutdownMethod,
  wolDeviceInputSchema,
  wolIssues,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';

type DeviceFields = Omit<WolDevice, 'key'>;

export interface DeviceFormValues extends Omit<DeviceFields, 'macs' | 'check'> {
  /** One per line, as typed (blank lines kept while typing). */
  macs: string[];
  check: Omit<DeviceFields['check'], 'tcpPort'> & {
    /** Empty = no TCP check (0 on the wire). */
    tcpPort: number | null;
  };
}

/** The schema's defaults for everything a new device does not name (parsed from a valid stand-in). */
const DEFAULT_DEVICE: DeviceFields = wolDeviceInputSchema.parse({ name: '-', macs: ['02:00:00:00:00:01'] });

function toValues(d: DeviceFields): DeviceFormValues {
  return {
    ...d,
    macs: [...d.macs],
    check: { ...d.check, tcpPort: d.check.tcpPort === 0 ? null : d.check.tcpPort },
    shutdown: { ...d.shutdown, ssh: { ...d.shutdown.ssh }, agent: { ...d.shutdown.agent } },
    relay: { ...d.relay },
  };
}

/** A new device: no name, no MAC yet, the schema's packet and check defaults. */
export function newDeviceValues(): DeviceFormValues {
  return { ...toValues(DEFAULT_DEVICE), name: '', macs: [''] };
}

/** The form values of a listed device (its key and live state left out; masked secrets stay masked). */
export function deviceToValues(d: WolDeviceView): DeviceFormValues {
  const { key: _key, state: _state, ...fields } = d;
  return toValues({ ...DEFAULT_DEVICE, ...fields });
}

const trimmed = (list: readonly string[] | undefined) => (list ?? []).map((s) => s.trim()).filter(Boolean);

/** What is sent: trimmed text, no blank MAC lines, an empty check port as 0. */
export function valuesToInput(v: DeviceFormValues): WolDeviceInput {
  const base = newDeviceValues();
  const s = { ...base.shutdown, ...v.shutdown };
  const method: WolShutdownMethod = s.method;
  return {
    name: (v.name ?? '').trim(),
    enabled: v.enabled ?? true,
    macs: trimmed(v.macs),
    broadcast: (v.broadcast ?? base.broadcast).trim(),
    interface: (v.interface ?? '').trim(),
    port: v.port ?? base.port,
    repeat: v.repeat ?? base.repeat,
    intervalMs: v.intervalMs ?? base.intervalMs,
    secureOn: (v.secureOn ?? '').trim(),
    check: {
      host: (v.check?.host ?? '').trim(),
      tcpPort: v.check?.tcpPort ?? 0,
      ping: v.check?.ping ?? base.check.ping,
    },
    shutdown: {
      method,
      ssh: {
        ...base.shutdown.ssh,
        ...s.ssh,
        host: (s.ssh?.host ?? '').trim(),
        user: (s.ssh?.user ?? '').trim(),
        command: (s.ssh?.command ?? '').trim(),
        // A key keeps its line breaks; only the ends are trimmed.
        privateKey: (s.ssh?.privateKey ?? '').trim(),
      },
      agent: { url: (s.agent?.url ?? '').trim(), token: (s.agent?.token ?? '').trim() },
    },
    relay: {
      enabled: v.relay?.enabled ?? false,
      url: (v.relay?.url ?? '').trim(),
      token: (v.relay?.token ?? '').trim(),
    },
  };
}

/** Every problem the server would name in this device (its schema's codes), and a name another device has. */
export function checkDevice(input: WolDeviceInput, otherNames: readonly string[] = []): Failure[] {
  const out: Failure[] = [];
  const taken = otherNames.find((n) => n.toLowerCase() === input.name.trim().toLowerCase());
  if (input.name.trim() !== '' && taken !== undefined)
    out.push({ field: 'name', code: 'nameTaken', params: { name: taken } });
  const r = wolDeviceInputSchema.safeParse(input);
  if (!r.success)
    for (const i of r.error.issues) {
      const { field, code, params } = wolIssues.fromZod(i, wolDeviceInputSchema);
      out.push({ field, code, params });
    }
  return out;
}

/** The MAC list's own problems, as typed (lines trimmed, blanks dropped): what the field shows at once. */
export function macProblems(lines: readonly string[] | undefined): Failure[] {
  const input = valuesToInput({ ...newDeviceValues(), name: '-', macs: [...(lines ?? [])] });
  return checkDevice(input).filter((f) => f.field === 'macs' || f.field?.startsWith('macs.'));
}

/** Items of the dialog a server path may name (a list entry belongs to its list's box). */
const FORM_ITEMS = new Set([
  'name',
  'enabled',
  'macs',
  'broadcast',
  'interface',
  'port',
  'repeat',
  'intervalMs',
  'secureOn',
  'check.host',
  'check.tcpPort',
  'check.ping',
  'shutdown.method',
  'shutdown.ssh.host',
  'shutdown.ssh.port',
  'shutdown.ssh.user',
  'shutdown.ssh.privateKey',
  'shutdown.ssh.command',
  'shutdown.agent.url',
  'shutdown.agent.token',
  'relay.enabled',
  'relay.url',
  'relay.token',
]);

/** The dialog's item of a server path (`devices.2.macs.1` → `['macs']`); undefined when it has none. */
export function formFieldOf(field: string): (string | number)[] | undefined {
  const parts = field.split('.');
  // A whole-config path (`devices.<i>.…`) names the device's own field after the index.
  const own = parts[0] === 'devices' && /^\d+$/.test(parts[1] ?? '') ? parts.slice(2) : parts;
  const cut = own.findIndex((p) => /^\d+$/.test(p));
  const path = cut === -1 ? own : own.slice(0, cut);
  return FORM_ITEMS.has(path.join('.')) ? path : undefined;
}

/** Which folded section of the dialog holds an item. */
export type SectionKey = 'packet' | 'check' | 'shutdown' | 'relay';
export function sectionOf(name: (string | number)[]): SectionKey | undefined {
  const first = String(name[0]);
  if (['port', 'repeat', 'intervalMs', 'secureOn'].includes(first)) return 'packet';
  if (first === 'check') return 'check';
  if (first === 'shutdown') return 'shutdown';
  if (first === 'relay') return 'relay';
  return undefined;
}

// The dialog's values and the checks it runs before a call: the shared schema the server parses
// with (so both give the same codes, read as storagemanagement.err_<code>) and the other
// entries' names.
import {
  type StorageEntryInput,
  type StorageEntryView,
  storageEntryInputSchema,
  storagemanagementIssues,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';

export type StorageFormValues = {
  name: string;
  enabled: boolean;
  kind: 'local' | 'webdav';
  readOnly: boolean;
  local: { path: string };
  webdav: { url: string; user: string; password: string; tlsVerify: boolean };
};

export const newStorageValues = (): StorageFormValues => ({
  name: '',
  enabled: true,
  kind: 'local',
  readOnly: false,
  local: { path: '' },
  webdav: { url: '', user: '', password: '', tlsVerify: true },
});

export const storageToValues = (s: StorageEntryView): StorageFormValues => ({
  name: s.name,
  enabled: s.enabled,
  kind: s.kind,
  readOnly: s.readOnly,
  local: { ...s.local },
  webdav: { ...s.webdav },
});

/** Both kinds' fields are sent (the server keeps the other kind's as typed, unchecked). */
export const valuesToInput = (v: StorageFormValues): StorageEntryInput => ({
  name: v.name.trim(),
  enabled: v.enabled,
  kind: v.kind,
  readOnly: v.readOnly,
  local: { path: v.local.path.trim() },
  webdav: { url: v.webdav.url.trim(), user: v.webdav.user, password: v.webdav.password, tlsVerify: v.webdav.tlsVerify },
});

export function checkStorage(input: StorageEntryInput, otherNames: readonly string[] = []): Failure[] {
  const r = storageEntryInputSchema.safeParse(input);
  const out: Failure[] = r.success
    ? []
    : r.error.issues.map((i) => {
        const { field, code, params } = storagemanagementIssues.fromZod(i, storageEntryInputSchema);
        return { field, code, params };
      });
  if (input.name && otherNames.includes(input.name) && !out.some((f) => f.field === 'name'))
    out.push({ field: 'name', code: 'nameTaken', params: { name: input.name } });
  return out;
}

/** An absolute path that resolves to `/` (`/`, `//`, `/.`, `/mnt/..`): the whole file system, as the server sees it. */
export function isRootPath(p: string): boolean {
  const t = p.trim();
  if (!t.startsWith('/')) return false;
  const stack: string[] = [];
  for (const seg of t.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') stack.pop();
    else stack.push(seg);
  }
  return stack.length === 0;
}

// The mount dialog as data: the input the server parses, and its checks (the folder name once
// among the mounts, compared as the server compares it: NFC, case-insensitive).
import { type FtpserverMountInput, ftpserverIssues, ftpserverMountInputSchema } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';

export interface MountFormValues {
  name: string;
  storage?: string;
  enabled: boolean;
}

export const valuesToMount = (v: MountFormValues): FtpserverMountInput => ({
  name: (v.name ?? '').trim(),
  storage: v.storage ?? '',
  enabled: v.enabled,
});

const folded = (s: string) => s.normalize('NFC').toLowerCase();

export function checkMount(input: FtpserverMountInput, otherNames: readonly string[]): Failure[] {
  const r = ftpserverMountInputSchema.safeParse(input);
  if (!r.success)
    return r.error.issues.map((i) => {
      const { field, code, params } = ftpserverIssues.fromZod(i, ftpserverMountInputSchema);
      return { field, code, params };
    });
  const name = r.data.name;
  if (otherNames.some((n) => folded(n) === folded(name)))
    return [{ field: 'name', code: 'nameTaken', params: { name } }];
  return [];
}

/**
 * The dialog's item of a server path: the body's (`name`, `storage`) or the whole config's, which
 * the save checks again (`mounts.2.storage` when storage management no longer has it).
 */
export function mountFieldOf(field: string): (string | number)[] | undefined {
  const name = field.replace(/^mounts\.\d+\./, '');
  return name === 'name' || name === 'storage' || name === 'enabled' ? [name] : undefined;
}

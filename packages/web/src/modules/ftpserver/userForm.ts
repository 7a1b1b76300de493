// The user dialog as data. The password box never shows the stored one: it starts empty, and an
// empty box on a user who has a password sends SECRET_MASK (the server keeps the stored hash); a
// typed one is sent as typed (the server hashes it). Access is one choice per mount: read-write,
// read-only or none (none = the mount is not in the user's map: the user does not see it).
import {
  FTP_ANONYMOUS_NAMES,
  type FtpAccess,
  type FtpserverUserInput,
  type FtpserverUserView,
  ftpserverIssues,
  ftpserverUserInputSchema,
  SECRET_MASK,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';

export type AccessChoice = FtpAccess | 'none';
export const ACCESS_CHOICES: readonly AccessChoice[] = ['rw', 'ro', 'none'];

export interface UserFormValues {
  name: string;
  enabled: boolean;
  /** A new password, or '' (keep the stored one; a new user must type one). */
  password: string;
  /** Per mount key. */
  access: Record<string, AccessChoice>;
}

/** Whether the stored user has a password (the view reads it as the mask). */
export const hasPassword = (u: Pick<FtpserverUserView, 'password'> | undefined) => !!u && u.password !== '';

export function userToValues(u: FtpserverUserView | undefined, mountKeys: readonly string[]): UserFormValues {
  const access: Record<string, AccessChoice> = {};
  for (const k of mountKeys) access[k] = u?.access[k] ?? (u ? 'none' : 'ro');
  return { name: u?.name ?? '', enabled: u?.enabled ?? true, password: '', access };
}

export function valuesToInput(v: UserFormValues, stored: FtpserverUserView | undefined): FtpserverUserInput {
  const access: Record<string, FtpAccess> = {};
  for (const [k, a] of Object.entries(v.access ?? {})) if (a === 'rw' || a === 'ro') access[k] = a;
  const typed = v.password ?? '';
  return {
    name: (v.name ?? '').trim(),
    enabled: v.enabled,
    password: typed === '' && hasPassword(stored) ? SECRET_MASK : typed,
    access,
  };
}

/**
 * Every problem the server would name: the input schema, then the checks across users (a name
 * another user has, case-insensitively; the anonymous names) and a new user's password.
 */
export function checkUser(
  input: FtpserverUserInput,
  otherNames: readonly string[],
  stored: FtpserverUserView | undefined,
): Failure[] {
  const r = ftpserverUserInputSchema.safeParse(input);
  if (!r.success)
    return r.error.issues.map((i) => {
      const { field, code, params } = ftpserverIssues.fromZod(i, ftpserverUserInputSchema);
      return { field, code, params };
    });
  const name = r.data.name;
  const lower = name.toLowerCase();
  if ((FTP_ANONYMOUS_NAMES as readonly string[]).includes(lower))
    return [{ field: 'name', code: 'userNameReserved', params: { name } }];
  if (otherNames.some((n) => n.toLowerCase() === lower))
    return [{ field: 'name', code: 'nameTaken', params: { name } }];
  if (r.data.password === '' && !hasPassword(stored))
    return [{ field: 'password', code: 'passwordRequired', params: {} }];
  return [];
}

/**
 * The dialog's item of a server path: the body's (`name`, `access.<mount>`) or the whole config's,
 * which the save checks again (`users.3.name` when another user has the name).
 */
export function userFieldOf(field: string): (string | number)[] | undefined {
  const [top, sub] = field.replace(/^users\.\d+\./, '').split('.');
  if (top === 'access') return sub ? ['access', sub] : undefined;
  return top === 'name' || top === 'password' || top === 'enabled' ? [top] : undefined;
}

// What the modules' settings dialogs do alike with their values: the patch of what changed (only
// that is sent), the check before sending with the schema the server parses with (answered in the
// module's codes), and the form item a refused server path belongs to.
import type { IssueKit } from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import type { NamePath } from '../../hooks/useFormErrors';

type SchemaIssue = Parameters<IssueKit['fromZod']>[0];

/** A zod schema as far as this file uses it. */
export interface CheckingSchema {
  safeParse(value: unknown): { error?: { issues: readonly SchemaIssue[] } };
}

/**
 * The fields of `next` whose value differs from the stored one. A field is compared as a whole
 * (a section, a list, the webhook): any change in it sends all of it.
 */
export function changedFields<S extends object, K extends keyof S>(
  stored: S,
  next: S,
  fields: readonly K[],
): Partial<Pick<S, K>> {
  const patch: Partial<Pick<S, K>> = {};
  for (const k of fields) if (JSON.stringify(next[k]) !== JSON.stringify(stored[k])) patch[k] = next[k];
  return patch;
}

/** Every problem `schema` finds in `value`, as field failures in the module's codes (none = it passes). */
export function schemaFailures(schema: CheckingSchema, issues: Pick<IssueKit, 'fromZod'>, value: unknown): Failure[] {
  return (schema.safeParse(value).error?.issues ?? []).map((i) => {
    const { field, code, params } = issues.fromZod(i, schema);
    return { field, code, params };
  });
}

/**
 * The form item of a server path in a dialog whose items are `fields`: an entry of a list
 * (`stunServers.1`) belongs to its list's box; a path outside `fields` has no item (undefined).
 */
export function listItemOf(fields: readonly string[]): (field: string) => NamePath | undefined {
  return (field) => {
    const out: string[] = [];
    for (const part of field.split('.')) {
      if (/^\d+$/.test(part)) break;
      out.push(part);
    }
    return out.length > 0 && fields.includes(out[0] as string) ? out : undefined;
  };
}

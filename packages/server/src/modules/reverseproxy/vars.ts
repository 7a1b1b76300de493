import { REVERSEPROXY_VARIABLES, type ReverseproxyVariable } from '@lucky/shared';

/** The values `expandVars` fills in, one per name the shared list documents. */
export type RequestVars = Record<ReverseproxyVariable, string>;

const VARIABLES: ReadonlySet<string> = new Set(REVERSEPROXY_VARIABLES);

/** Replace `{name}` (and the ancestor's `#{name}`) by the request's values; unknown names stay. */
export function expandVars(template: string, vars: RequestVars): string {
  return template.replace(/#?\{([A-Za-z]+)\}/g, (all, name: string) =>
    VARIABLES.has(name) ? String(vars[name as keyof RequestVars]) : all,
  );
}

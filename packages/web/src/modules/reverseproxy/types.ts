// What the web service API answers (docs/API.md, "Web service"): a rule as
// stored, with live status and the newest log lines, and basic-auth passwords
// replaced by `passwordSet` and credential header values by `valueSet` (the server never
// sends a stored secret back; an empty value on save keeps it).
import type {
  ReverseproxyLogEntry,
  ReverseproxyRule,
  ReverseproxyRuleStatus,
  ReverseproxyService,
  ReverseproxySubRule,
} from '@lucky/shared';

type Masked<T extends ReverseproxyService> = Omit<T, 'basicAuth' | 'requestHeaders'> & {
  basicAuth: T['basicAuth'] & { passwordSet: boolean };
  /** Credential headers (Authorization, *token*, *key*, …) read with value '' and `valueSet`. */
  requestHeaders: (T['requestHeaders'][number] & { valueSet?: boolean })[];
};

export type ServiceView = Masked<ReverseproxyService>;
export type SubRuleView = Masked<ReverseproxySubRule>;

export type RuleView = Omit<ReverseproxyRule, 'defaultRule' | 'subRules'> & {
  defaultRule: ServiceView;
  subRules: SubRuleView[];
  status: ReverseproxyRuleStatus;
  /** Newest first, `showLatest` per site: `default` and each sub rule key. */
  lastLogs: Record<string, ReverseproxyLogEntry[]>;
};

export interface RuleListResponse {
  ret: number;
  list: RuleView[];
}

export interface RuleResponse {
  ret: number;
  rule: RuleView;
}

export interface LogsResponse {
  ret: number;
  total: number;
  page: number;
  pageSize: number;
  logs: ReverseproxyLogEntry[];
}

/** `default` (the default rule) or a sub rule key. */
export const DEFAULT_SITE = 'default';

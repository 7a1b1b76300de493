// The cron module's shared half: config schema, issue codes, API bodies and views.
import { z } from 'zod';
import { moduleSwitchShape } from '../contract/switch.js';
import { isHostName, isIp } from '../net.js';
import { issueKit } from './fieldIssue.js';

/** Issue codes (the zod messages of the schemas) with their English text; the UI translates `cron.err_<code>`. */
export const CRON_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another item has this name',
  hostInvalid: 'not a host name or IP address',
  itemNotFound: 'no such item',
} as const;
export type CronIssueCode = keyof typeof CRON_MESSAGES;
export const cronIssues = issueKit(CRON_MESSAGES);

const itemShape = {
  name: z.string().trim().min(1, 'nameRequired').max(64),
  enabled: z.boolean().default(true),
  host: z
    .string()
    .trim()
    .max(253)
    .refine((h) => h === '' || isHostName(h) || isIp(h), 'hostInvalid')
    .default(''),
  /** A whole-value secret: read as SECRET_MASK, kept when sent back so. */
  secret: z.string().max(256).default(''),
};

/** An item as the browser sends it (the server assigns the key). */
export const cronItemInputSchema = z.object(itemShape);
export const cronItemSchema = z.object({ key: z.string().regex(/^[A-Za-z0-9]{1,32}$/), ...itemShape });

/** The config slice; `{}` parses to the module switched on with no items. */
export const cronConfigSchema = z.object({
  ...moduleSwitchShape(true),
  items: z.array(cronItemSchema).max(256).default([]),
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const CRON_SECRETS = ['items.*.secret'] as const;

export type CronItemInput = z.input<typeof cronItemInputSchema>;
export type CronItem = z.infer<typeof cronItemSchema>;
export type CronConfig = z.infer<typeof cronConfigSchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

/** An item as read: its secret masked. */
export type CronItemView = CronItem;

export interface CronListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: CronItemView[];
}

export interface CronItemResponse {
  ret: 0;
  item: CronItemView;
}

// The wanji_admin module's shared half: config schema, issue codes, API bodies and views.
import { z } from 'zod';
import { moduleSwitchShape } from '../contract/switch.js';
import { isHostName, isIp } from '../net.js';
import { issueKit } from './fieldIssue.js';

/** Issue codes (the zod messages of the schemas) with their English text; the UI translates `wanji_admin.err_<code>`. */
export const WANJI_ADMIN_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another item has this name',
  hostInvalid: 'not a host name or IP address',
  itemNotFound: 'no such item',
} as const;
export type WanjiAdminIssueCode = keyof typeof WANJI_ADMIN_MESSAGES;
export const wanjiAdminIssues = issueKit(WANJI_ADMIN_MESSAGES);

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
export const wanjiAdminItemInputSchema = z.object(itemShape);
export const wanjiAdminItemSchema = z.object({ key: z.string().regex(/^[A-Za-z0-9]{1,32}$/), ...itemShape });

/** The config slice; `{}` parses to the module switched on with no items. */
export const wanjiAdminConfigSchema = z.object({
  ...moduleSwitchShape(true),
  items: z.array(wanjiAdminItemSchema).max(256).default([]),
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const WANJI_ADMIN_SECRETS = ['items.*.secret'] as const;

export type WanjiAdminItemInput = z.input<typeof wanjiAdminItemInputSchema>;
export type WanjiAdminItem = z.infer<typeof wanjiAdminItemSchema>;
export type WanjiAdminConfig = z.infer<typeof wanjiAdminConfigSchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

/** An item as read: its secret masked. */
export type WanjiAdminItemView = WanjiAdminItem;

export interface WanjiAdminListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: WanjiAdminItemView[];
}

export interface WanjiAdminItemResponse {
  ret: 0;
  item: WanjiAdminItemView;
}

// The webdav module's shared half: config schema, issue codes, API bodies and views.
import { z } from 'zod';
import { moduleSwitchShape } from '../contract/switch.js';
import { isHostName, isIp } from '../net.js';
import { issueKit } from './fieldIssue.js';

/** Issue codes (the zod messages of the schemas) with their English text; the UI translates `webdav.err_<code>`. */
export const WEBDAV_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another item has this name',
  hostInvalid: 'not a host name or IP address',
  itemNotFound: 'no such item',
} as const;
export type WebdavIssueCode = keyof typeof WEBDAV_MESSAGES;
export const webdavIssues = issueKit(WEBDAV_MESSAGES);

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
export const webdavItemInputSchema = z.object(itemShape);
export const webdavItemSchema = z.object({ key: z.string().regex(/^[A-Za-z0-9]{1,32}$/), ...itemShape });

/** The config slice; `{}` parses to the module switched on with no items. */
export const webdavConfigSchema = z.object({
  ...moduleSwitchShape(true),
  items: z.array(webdavItemSchema).max(256).default([]),
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const WEBDAV_SECRETS = ['items.*.secret'] as const;

export type WebdavItemInput = z.input<typeof webdavItemInputSchema>;
export type WebdavItem = z.infer<typeof webdavItemSchema>;
export type WebdavConfig = z.infer<typeof webdavConfigSchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

/** An item as read: its secret masked. */
export type WebdavItemView = WebdavItem;

export interface WebdavListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: WebdavItemView[];
}

export interface WebdavItemResponse {
  ret: 0;
  item: WebdavItemView;
}

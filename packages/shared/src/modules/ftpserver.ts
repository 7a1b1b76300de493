// The ftpserver module's shared half: config schema, issue codes, API bodies and views.
import { z } from 'zod';
import { moduleSwitchShape } from '../contract/switch.js';
import { isHostName, isIp } from '../net.js';
import { issueKit } from './fieldIssue.js';

/** Issue codes (the zod messages of the schemas) with their English text; the UI translates `ftpserver.err_<code>`. */
export const FTPSERVER_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another item has this name',
  hostInvalid: 'not a host name or IP address',
  itemNotFound: 'no such item',
} as const;
export type FtpserverIssueCode = keyof typeof FTPSERVER_MESSAGES;
export const ftpserverIssues = issueKit(FTPSERVER_MESSAGES);

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
export const ftpserverItemInputSchema = z.object(itemShape);
export const ftpserverItemSchema = z.object({ key: z.string().regex(/^[A-Za-z0-9]{1,32}$/), ...itemShape });

/** The config slice; `{}` parses to the module switched on with no items. */
export const ftpserverConfigSchema = z.object({
  ...moduleSwitchShape(true),
  items: z.array(ftpserverItemSchema).max(256).default([]),
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const FTPSERVER_SECRETS = ['items.*.secret'] as const;

export type FtpserverItemInput = z.input<typeof ftpserverItemInputSchema>;
export type FtpserverItem = z.infer<typeof ftpserverItemSchema>;
export type FtpserverConfig = z.infer<typeof ftpserverConfigSchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

/** An item as read: its secret masked. */
export type FtpserverItemView = FtpserverItem;

export interface FtpserverListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: FtpserverItemView[];
}

export interface FtpserverItemResponse {
  ret: 0;
  item: FtpserverItemView;
}

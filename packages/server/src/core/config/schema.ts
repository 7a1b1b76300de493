import { baseSettingsSchema, safeConfigSchema } from '@lucky/shared';
import { z } from 'zod';
import { certRecordSchema } from '../certs/schema.js';

export const CONFIG_SCHEMA_VERSION = 1;

const apiTokenRecord = z.object({
  id: z.string().min(1),
  name: z.string(),
  /** sha256 hex of the secret part; the token itself is shown once and never stored. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
});

/** Secrets of the admin login. Never sent to the browser. */
export const authConfigSchema = z.object({
  /** `scrypt$N$r$p$salt$hash` (see core/auth/password.ts). */
  passwordHash: z.string().startsWith('scrypt$'),
  passwordIsDefault: z.boolean().default(false),
  twoFA: z
    .object({
      enabled: z.boolean().default(false),
      /** Base32 TOTP secret: must stay usable server-side, so it is protected by file mode 0600, not hashed. */
      secret: z.string().default(''),
      /** sha256 hex of each unused recovery code. */
      recoveryCodes: z.array(z.string()).default([]),
    })
    .default({ enabled: false, secret: '', recoveryCodes: [] }),
  apiTokens: z.array(apiTokenRecord).default([]),
});

export const configSchema = z.object({
  schemaVersion: z.literal(CONFIG_SCHEMA_VERSION),
  base: baseSettingsSchema.default(baseSettingsSchema.parse({})),
  auth: authConfigSchema,
  /** One slice per module key, validated by that module's own schema. */
  modules: z.record(z.string(), z.unknown()).default({}),
  /** The certificate store (core/certs): PEM pairs, kept with the rest of the 0600 config. */
  certs: z.array(certRecordSchema).optional(),
  /** The security lists of /safe (core/safe): allow/block lists, knock, auto-ban settings. */
  safe: safeConfigSchema.prefault({}),
});

export type AppConfig = z.infer<typeof configSchema>;
export type AuthConfig = z.infer<typeof authConfigSchema>;
export type ApiTokenRecord = z.infer<typeof apiTokenRecord>;

/**
 * Bring an older config document up to the current schemaVersion. Each later
 * version adds one step here; version 1 is the first, so there is nothing yet.
 */
export function migrateConfig(doc: unknown): unknown {
  if (doc && typeof doc === 'object' && !('schemaVersion' in doc)) {
    return { ...doc, schemaVersion: CONFIG_SCHEMA_VERSION };
  }
  return doc;
}

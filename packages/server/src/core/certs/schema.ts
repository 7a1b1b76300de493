import { z } from 'zod';

/**
 * One stored certificate: PEM chain + PEM private key, in the config file's
 * `certs` slice. The config file is written atomically with mode 0600 and is
 * what backups and restores carry, so certificates travel with the rest of the
 * settings (see docs/ARCHITECTURE.md, "Certificates").
 */
export const certRecordSchema = z.object({
  key: z.string().min(1),
  enable: z.boolean().default(true),
  remark: z.string().max(256).default(''),
  /** PEM text: leaf first, then any intermediates. */
  certPem: z.string().min(1),
  keyPem: z.string().min(1),
  addTime: z.string(),
  /**
   * Set for an entry a module keeps up to date (an ACME certificate): the module replaces it on
   * renewal and removes it, the certificates tab shows who manages it.
   */
  managedBy: z.object({ module: z.string().min(1), item: z.string().min(1) }).optional(),
});

/** Who manages a store entry: a module and its item (an ACME certificate's key). */
export type CertOwner = NonNullable<CertRecord['managedBy']>;

export type CertRecord = z.infer<typeof certRecordSchema>;

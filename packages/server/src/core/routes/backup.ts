import { randomInt } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { configBackupFile } from '../config/backupFile.js';
import type { AppConfig } from '../config/schema.js';
import { ConfigValidationError, clampedLine, parseConfigDocument } from '../config/store.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { ApiFailure, badRequest } from '../http/reply.js';

const PENDING_RESTORE_MS = 10 * 60_000;
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
const MAX_BASE64_FILE_BYTES = 1024 * 1024;

/** Read the single uploaded file of a multipart request into memory, refusing anything over `max`. */
export async function readUpload(req: FastifyRequest, max: number): Promise<{ name: string; data: Buffer }> {
  if (!req.isMultipart()) throw badRequest('send the file as multipart/form-data', 'file');
  let part: MultipartFile | undefined;
  try {
    part = await req.file({ limits: { fileSize: max } });
  } catch (err) {
    throw badRequest((err as Error).message, 'file');
  }
  if (!part) throw badRequest('no file in the upload', 'file');
  const data = await part.toBuffer().catch((err: Error & { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiFailure(413, 1, `file larger than ${max} bytes`, 'file', { code: 'fileTooLarge', max });
    throw err;
  });
  return { name: part.filename, data };
}

/** Backup download, restore upload + confirm, and the PEM-upload helper. */
export function registerBackupRoutes(r: RouteRegistry, core: Core): void {
  let pending: { key: string; config: AppConfig; expires: number } | undefined;

  r.add({
    method: 'GET',
    path: '/api/configure',
    access: 'token',
    raw: true,
    summary: 'Download the whole config file (a backup)',
    handler: (_req, reply) => {
      const file = configBackupFile(core.store.get());
      core.log.info('config backup downloaded');
      return reply
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .type('application/json')
        .send(file.text);
    },
  });

  r.add({
    method: 'POST',
    path: '/api/configure',
    access: 'token',
    summary: 'Upload a config backup to restore (multipart `file`); confirm with /api/restoreconfigureconfirm',
    handler: async (req) => {
      const file = await readUpload(req, MAX_CONFIG_BYTES);
      let config: AppConfig;
      try {
        config = parseConfigDocument(file.data.toString('utf8'), (c) =>
          core.log.warn(clampedLine('uploaded backup: ', c)),
        );
      } catch (err) {
        if (err instanceof ConfigValidationError)
          throw badRequest(`not a usable Lucky config: ${err.message}`, 'file', 'notAConfig');
        throw err;
      }
      const key = Array.from({ length: 16 }, () => randomInt(10)).join('');
      pending = { key, config, expires: Date.now() + PENDING_RESTORE_MS };
      return { ret: 0, file: file.name, restoreConfigureKey: key, port: core.opts.port || config.base.adminPort };
    },
  });

  const keyQuery = z.object({ key: z.string().regex(/^\d{16}$/, 'key must be the 16 digits from the upload') });
  r.add({
    method: 'GET',
    path: '/api/restoreconfigureconfirm',
    audit: true,
    access: 'token',
    summary: 'Apply the uploaded config and restart',
    query: keyQuery,
    handler: async (req, reply, ctx) => {
      const { key } = parseInput(keyQuery, req.query);
      if (!pending || pending.key !== key || pending.expires < Date.now()) {
        throw badRequest('unknown or expired restore key; upload the file again', 'key', 'restoreKeyInvalid');
      }
      const next = pending.config;
      pending = undefined;
      const prevAuth = JSON.stringify(core.store.get().auth);
      await core.store.replace(next);
      if (JSON.stringify(next.auth) !== prevAuth) await core.sessions.revokeAll();
      core.log.warn(`config restored from a backup by ${ctx.clientIp}; restarting`);
      reply.raw.once('finish', () => setTimeout(() => core.requestRestart(), 100));
      // A -p flag overrides the saved port for as long as the program runs with it.
      return { ret: 0, msg: 'restored; restarting', port: core.opts.port || next.base.adminPort };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/getfilebase64',
    access: 'token',
    summary: 'Upload a small file (≤ 1 MB, e.g. a PEM) and get it back in base64',
    handler: async (req) => {
      const file = await readUpload(req, MAX_BASE64_FILE_BYTES);
      return { ret: 0, file: file.name, base64: file.data.toString('base64') };
    },
  });
}

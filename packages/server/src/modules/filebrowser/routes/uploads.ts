import type { FilebrowserConfig } from '@lucky/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Method, Routes } from '../../../core/http/registry.js';
import type { ModuleApi } from '../../../core/modules/types.js';
import { runningModule } from '../storageAccess.js';
import { UPLOADS_PATH } from '../uploads/service.js';

/**
 * tus 1.0.0 at `/api/filebrowser/uploads` (creation, termination, expiration): one route per
 * method, so the registry checks the admin token (tus-js-client sends it as a header) and lists
 * them; the body of a PATCH is left unparsed (app.ts passes `application/offset+octet-stream` on
 * as the raw stream) and the tus server reads it.
 */
export function registerUploadRoutes(r: Routes, api: ModuleApi<FilebrowserConfig>): void {
  const tus = async (req: FastifyRequest, reply: FastifyReply) => runningModule(api).uploads.handle(req, reply);
  const add = (method: Method, path: string, summary: string, audit: boolean) =>
    r.add({ method, path, access: 'token', summary, audit, raw: true, handler: tus });

  add(
    'POST',
    UPLOADS_PATH,
    'File manager: start an upload (tus creation; Upload-Metadata: storage, dir, relativePath, conflict, mtime)',
    true,
  );
  add('HEAD', `${UPLOADS_PATH}/:id`, 'File manager: how much of an upload arrived (tus Upload-Offset)', false);
  // One PATCH per chunk: the upload's start and end are in the audit log, not every chunk.
  add('PATCH', `${UPLOADS_PATH}/:id`, 'File manager: send the bytes of an upload from Upload-Offset (tus)', false);
  add(
    'DELETE',
    `${UPLOADS_PATH}/:id`,
    'File manager: cancel an upload, its partial file removed (tus termination)',
    true,
  );
}

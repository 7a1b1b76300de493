import { z } from 'zod';
import type { ConfigStore } from '../config/store.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { ApiFailure, notFound } from '../http/reply.js';
import { CertError, pemFromInput } from './parse.js';
import { certStoreFor, DuplicateCertError } from './store.js';

const addBody = z.object({
  Remark: z.string().max(256).default(''),
  /** base64 of the PEM text (as /api/getfilebase64 answers) or the PEM text itself. */
  CertBase64: z.string().min(1, 'certificate is required'),
  KeyBase64: z.string().min(1, 'private key is required'),
});

const keyQuery = z.object({ key: z.string().min(1, 'key is required') });
const putQuery = z.object({
  key: z.string().min(1, 'key is required'),
  field: z.enum(['enable', 'remark']),
  value: z.string().max(256).default(''),
});

/** `/api/ssl`: the core's certificate store (docs/API.md, "Certificates"). */
export function registerCertRoutes(r: RouteRegistry, core: { store: ConfigStore }): void {
  const certs = certStoreFor(core.store);

  r.add({
    method: 'GET',
    path: '/api/ssl',
    access: 'token',
    summary: 'Certificates: list with domains and validity (never the key material)',
    handler: () => ({ ret: 0, list: certs.list() }),
  });

  r.add({
    method: 'POST',
    path: '/api/ssl',
    access: 'token',
    summary: 'Certificates: add a PEM certificate chain and its private key',
    body: addBody,
    handler: async (req) => {
      const body = parseInput(addBody, req.body);
      try {
        const key = await certs.add({
          remark: body.Remark,
          certPem: pemFromInput(body.CertBase64),
          keyPem: pemFromInput(body.KeyBase64),
        });
        return { ret: 0, key };
      } catch (err) {
        if (err instanceof CertError) throw new ApiFailure(400, 2, err.message, err.field, { code: 'certInvalid' });
        if (err instanceof DuplicateCertError)
          throw new ApiFailure(409, 2, err.message, 'CertBase64', { code: 'certDuplicate' });
        throw err;
      }
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/ssl',
    access: 'token',
    summary: 'Certificates: switch on/off (field=enable, value=true|false) or set the remark (field=remark)',
    query: putQuery,
    handler: async (req) => {
      const q = parseInput(putQuery, req.query);
      let patch: { enable?: boolean; remark?: string };
      if (q.field === 'enable') {
        if (q.value !== 'true' && q.value !== 'false') throw new ApiFailure(400, 1, 'value: true or false', 'value');
        patch = { enable: q.value === 'true' };
      } else patch = { remark: q.value };
      if (!(await certs.update(q.key, patch))) throw notFound('no such certificate');
      return { ret: 0 };
    },
  });

  r.add({
    method: 'DELETE',
    path: '/api/ssl',
    access: 'token',
    summary: 'Certificates: delete one',
    query: keyQuery,
    handler: async (req) => {
      const q = parseInput(keyQuery, req.query);
      if (!(await certs.remove(q.key))) throw notFound('no such certificate');
      return { ret: 0 };
    },
  });
}

import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { parseInput } from '../http/registry.js';
import { ApiFailure, badRequest } from '../http/reply.js';
import { createUpdater, UpdateError } from '../system/release.js';
import { loadTrustedKeys } from '../system/releaseSignature.js';
import { createServiceManager } from '../system/service.js';
import { INSTALL_ROOT } from '../version.js';

const serviceQuery = z.object({
  option: z.enum(['install', 'uninstall', 'start', 'stop', 'restart', 'status'], {
    message: 'option must be install, uninstall, start, stop, restart or status',
  }),
});
/** `allowUnsigned=1`: the admin saw the warning and installs a package without a trusted signature. */
const uploadQuery = z.object({
  allowUnsigned: z.enum(['0', '1', 'true', 'false'], { message: 'allowUnsigned must be 1 or 0' }).optional(),
});
const confirmBody = z.object({ key: z.string().min(1, 'key cannot be empty').max(64) });
const MAX_RELEASE_BYTES = 200 * 1024 * 1024;

/** System service (systemd) and self-update from an uploaded release package. */
export function registerSystemRoutes(r: RouteRegistry, core: Core): void {
  const entry = core.opts.entry ?? {
    execPath: process.execPath,
    args: [path.join(INSTALL_ROOT, 'packages/server/dist/main.js')],
  };
  const service = createServiceManager({
    execStart: [entry.execPath, ...withConfigDir(entry.args, core.configDir)],
    workingDirectory: INSTALL_ROOT,
  });
  r.add({
    method: 'PUT',
    path: '/api/lucky/service',
    access: 'token',
    summary: 'Install, remove, start, stop or restart Lucky as a systemd service',
    query: serviceQuery,
    handler: async (req, reply) => {
      const { option } = parseInput(serviceQuery, req.query);
      const result = await service.control(option);
      if (!result.ok) {
        throw new ApiFailure(result.code === 'bad-option' ? 400 : 409, 4, result.msg, 'option', {
          code:
            result.code === 'unsupported'
              ? 'serviceUnsupported'
              : result.code === 'permission'
                ? 'servicePermission'
                : undefined,
        });
      }
      core.log.info(`system service ${option}: ${result.status}`);
      if (result.handover) {
        // The unit was started while we run outside it: it cannot bind our port
        // until we leave, so answer, then exit cleanly and let systemd take over.
        reply.raw.once('finish', () => setTimeout(() => process.exit(0), 300));
      }
      return { ret: 0, status: result.status, msg: result.msg ?? '', handover: result.handover === true };
    },
  });

  const updater = createUpdater({
    installRoot: INSTALL_ROOT,
    stagingDir: path.join(core.configDir, 'update-staging'),
    trustedKeys: () =>
      loadTrustedKeys(core.configDir, (file) =>
        core.log.warn(`trusted-keys/${file} is not an ed25519 public key (PEM); ignored`),
      ),
  });
  r.add({
    method: 'POST',
    path: '/api/update',
    access: 'token',
    summary:
      'Upload a release package (.tar.gz); it is verified (checksums, signature) and held until confirmed. Without a trusted signature it is refused (code releaseUnsigned) unless ?allowUnsigned=1',
    query: uploadQuery,
    handler: async (req) => {
      const { allowUnsigned } = parseInput(uploadQuery, req.query);
      if (!req.isMultipart()) throw badRequest('send the package as multipart/form-data', 'file');
      const part = await req.file({ limits: { fileSize: MAX_RELEASE_BYTES } });
      if (!part) throw badRequest('no file in the upload', 'file');
      const tmpDir = await fs.mkdtemp(path.join(core.configDir, '.upload-'));
      const file = path.join(tmpDir, 'release.tar.gz');
      try {
        await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
        if (part.file.truncated) throw new ApiFailure(413, 1, `package larger than ${MAX_RELEASE_BYTES} bytes`, 'file');
        const staged = await updater
          .stage(file, { allowUnsigned: allowUnsigned === '1' || allowUnsigned === 'true' })
          .catch((err: Error) => {
            throw asFailure(err, 'not a valid release package', 'file');
          });
        const sig = staged.signature;
        if (sig.status === 'trusted') {
          core.log.info(
            `release package ${staged.version} uploaded and verified (signed by ${sig.keyName}, key ${sig.keyId})`,
          );
        } else {
          core.log.warn(
            `release package ${staged.version} uploaded WITHOUT a trusted signature (${sig.status === 'unsigned' ? 'unsigned' : `unknown key ${sig.keyId}`}); the admin confirmed the warning`,
          );
        }
        return {
          ret: 0,
          version: staged.version,
          key: staged.key,
          currentVersion: core.version,
          signature: sig.status === 'trusted' ? { status: 'trusted', keyId: sig.keyId, keyName: sig.keyName } : sig,
        };
      } finally {
        await fs.rm(tmpDir, { recursive: true, force: true });
      }
    },
  });
  r.add({
    method: 'PUT',
    path: '/api/update/comfire',
    access: 'token',
    summary: 'Install the uploaded release and restart (the previous one is kept for roll-back)',
    body: confirmBody,
    handler: async (req, reply) => {
      const { key } = parseInput(confirmBody, req.body);
      const done = await updater.confirm(key).catch((err: Error) => {
        throw asFailure(err, 'update failed', 'key');
      });
      core.log.warn(`updating ${core.version} → ${done.version}; restarting`);
      reply.raw.once('finish', () => setTimeout(() => core.requestRestart(), 100));
      return { ret: 0, version: done.version };
    },
  });
  r.add({
    method: 'GET',
    path: '/api/update/cancel',
    audit: true,
    access: 'token',
    summary: 'Drop the uploaded release package',
    handler: async () => {
      await updater.cancel();
      return { ret: 0 };
    },
  });
}

/** The service must use an absolute config dir whatever the flags said. */
function withConfigDir(args: string[], configDir: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-cd' || args[i] === '--config-dir') {
      i++;
      continue;
    }
    if (args[i] === '--no-supervisor') continue;
    out.push(args[i]);
  }
  return [...out, '-cd', configDir];
}

/** Codes the update screen acts on (the unsigned warning dialog). */
const UPDATE_CODES: Partial<Record<string, string>> = {
  unsigned: 'releaseUnsigned',
  'bad-signature': 'releaseBadSignature',
};

function asFailure(err: Error, what: string, field: string): ApiFailure {
  if (err instanceof UpdateError) {
    const code = UPDATE_CODES[err.code];
    return new ApiFailure(
      err.status,
      err.status >= 500 ? 5 : 1,
      `${what}: ${err.message}`,
      field,
      code ? { code } : undefined,
    );
  }
  return new ApiFailure(500, 5, `${what}: ${err.message}`, field);
}

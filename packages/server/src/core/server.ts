import { registerCertRoutes } from './certs/routes.js';
import { type Core, type CoreOptions, createCore } from './core.js';
import { adminRelay, setAdminRelay } from './http/adminRelay.js';
import { type AdminApp, buildAdminApp } from './http/app.js';
import { registerBackupRoutes } from './routes/backup.js';
import { registerLoginLinkRoutes } from './routes/loginLink.js';
import { registerModuleRoutes } from './routes/modules.js';
import { registerProgramRoutes } from './routes/program.js';
import { registerSafeRoutes } from './routes/safe.js';
import { registerSecurityRoutes } from './routes/security.js';
import { registerSessionRoutes } from './routes/session.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerSystemRoutes } from './routes/system.js';
import { registerKnockRoutes } from './safe/knock.js';
import { loadAdminCertificate } from './tls/adminCert.js';

export interface RunningServer {
  core: Core;
  admin: AdminApp;
  port: number;
  close(): Promise<void>;
}

/** Build the core, the admin app and its routes, listen, then start the modules. */
export async function startServer(opts: CoreOptions): Promise<RunningServer> {
  const core = await createCore(opts);
  const tls = await loadAdminCertificate(core.configDir);
  const admin = await buildAdminApp(core, tls);
  const r = admin.registry;
  registerSessionRoutes(r, core);
  registerLoginLinkRoutes(r, core);
  registerSettingsRoutes(r, core);
  registerSecurityRoutes(r, core);
  registerSafeRoutes(r, core);
  registerKnockRoutes(r, core);
  registerProgramRoutes(r, core, admin.listener);
  registerBackupRoutes(r, core);
  registerSystemRoutes(r, core);
  registerCertRoutes(r, core);
  registerModuleRoutes(r, core);
  for (const key of core.modules.keys()) core.modules.registerRoutes(key, r);
  await admin.app.ready();

  const port = opts.port ?? core.store.get().base.adminPort;
  const bound = await listenDualStack(admin, port, opts.host);
  // A fresh secret per process: our web service hands the real client to this port with it.
  const relay = setAdminRelay({ port: bound });
  core.ports.set('admin', [{ proto: 'tcp', port: bound, host: opts.host ?? '', owner: { module: 'admin' } }]);
  core.log.info(
    `Lucky ${core.version} listening on http(s)://${opts.host ?? '[::]'}:${bound} (config dir ${core.configDir})`,
  );
  if (core.store.get().auth.passwordIsDefault)
    core.log.warn('the admin login is still the default 666 / 666: change it in settings');
  await core.modules.startAll();

  let closed = false;
  return {
    core,
    admin,
    port: bound,
    async close() {
      if (closed) return;
      closed = true;
      await core.modules.stopAll();
      if (adminRelay() === relay) setAdminRelay(undefined);
      await admin.listener.close();
      await admin.app.close();
      // Audit lines are appended in the background; let the last ones land.
      await core.audit.flush();
      await core.authState.flush();
      await core.safe.stop();
    },
  };
}

async function listenDualStack(admin: AdminApp, port: number, host?: string): Promise<number> {
  if (host) return admin.listener.listen(port, host);
  try {
    return await admin.listener.listen(port, '::');
  } catch (err) {
    // No IPv6 on this machine: fall back to IPv4 only.
    if (
      (err as NodeJS.ErrnoException).code === 'EAFNOSUPPORT' ||
      (err as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL'
    ) {
      return admin.listener.listen(port, '0.0.0.0');
    }
    throw err;
  }
}

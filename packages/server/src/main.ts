#!/usr/bin/env node
// Composition root: flags, then either the supervising parent or the server itself.
import { fileURLToPath } from 'node:url';
import { FlagError, HELP, parseFlags } from './cli/flags.js';
import { EXIT_FATAL, supervise } from './cli/supervise.js';
import { markUpdateHealthy, onWorkerEarlyCrash } from './core/system/updateRollback.js';
// The server itself (Fastify and all) is imported only in the worker: the parent stays small.
import { readVersion } from './core/version.js';

async function main(): Promise<void> {
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (err) {
    if (err instanceof FlagError) {
      process.stderr.write(`lucky: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (flags.command === 'help') return void process.stdout.write(HELP);
  if (flags.command === 'version') return void process.stdout.write(`${readVersion()}\n`);
  if (flags.command === 'reset-login') return (await import('./cli/resetLogin.js')).resetLogin(flags.configDir);

  const entry = fileURLToPath(import.meta.url);
  if (!flags.noSupervisor && process.env.LUCKY_WORKER !== '1') {
    supervise({ entry, args: process.argv.slice(2), onEarlyCrash: onWorkerEarlyCrash });
    return;
  }

  const { startServer } = await import('./core/server.js');
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      configDir: flags.configDir,
      port: flags.port,
      host: flags.host,
      entry: { execPath: process.execPath, args: [entry, ...process.argv.slice(2)] },
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    process.stderr.write(
      `lucky: cannot start: ${e.code === 'EADDRINUSE' ? `port ${flags.port ?? ''} is already in use` : e.message}\n`,
    );
    process.exit(EXIT_FATAL);
  }
  process.send?.({ type: 'ready', port: server.port });
  await markUpdateHealthy();
  const shutdown = async (sig: string) => {
    server.core.log.info(`${sig}: stopping`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();

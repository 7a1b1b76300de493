// The built server in one process (no supervising parent), announcing its admin port and PID on
// stdout. Used by bench/reverseproxy.mjs and the streaming memory test.
// Usage: node bench/reverseproxy-server.mjs CONFIG_DIR [ADMIN_PORT=0]
// LUCKY_BENCH_DIST=<packages/server/dist of another checkout> runs that build instead of this one's.
// Prints one JSON line {"port": <admin port>, "pid": <pid>} once the admin API answers; SIGTERM stops it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(
  process.env.LUCKY_BENCH_DIST || path.join(path.dirname(fileURLToPath(import.meta.url)), '../packages/server/dist'),
);
const { startServer } = await import(path.join(dist, 'core/server.js'));

const [configDir, port = '0'] = process.argv.slice(2);
if (!configDir) {
  console.error('usage: node bench/reverseproxy-server.mjs CONFIG_DIR [ADMIN_PORT]');
  process.exit(2);
}
const server = await startServer({
  configDir,
  port: Number(port),
  host: '127.0.0.1',
  stdoutLogs: false,
});
process.stdout.write(`${JSON.stringify({ port: server.port, pid: process.pid })}\n`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

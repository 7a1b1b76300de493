// `npm start [-- flags]`: build what is needed, then run the console.
// Without -cd the config dir is ./data in the repository (git-ignored).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (!args.includes('-h') && !args.includes('--help')) buildIfNeeded();
if (!args.includes('-cd') && !args.includes('--config-dir')) args.push('-cd', path.join(root, 'data'));
const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js'), ...args], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));

// After `vite build`: write .br and .gz beside every text asset, so the admin
// server (@fastify/static preCompressed) sends them without compressing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/web/dist');
const TEXT = /\.(js|css|html|svg|json|txt)$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (TEXT.test(name) && statSync(p).size > 1024) {
      const data = readFileSync(p);
      writeFileSync(`${p}.gz`, gzipSync(data, { level: 9 }));
      writeFileSync(`${p}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }
  }
}
walk(dist);

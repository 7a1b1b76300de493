// Keeps one PortMapping inside a lab namespace (started by helpers.ts's keepInHome with the lab's
// spawn): prints each change and renewal as a JSON line as it happens; when its stdin closes it
// stops the mapping (which deletes it), prints {"t":"stopped"} and exits.
// Argument: JSON { method, req, retryMinMs? }.
import { type PortMapMethod, PortMapping, type PortMappingRequest } from '../../src/modules/stun/portmap/mapping.js';

const { method, req, retryMinMs } = JSON.parse(process.argv[2] ?? '{}') as {
  method: PortMapMethod;
  req: PortMappingRequest;
  retryMinMs?: number;
};
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
const mapping = new PortMapping(
  method,
  req,
  { onChange: (state) => say({ t: 'change', state }), onRenew: (state) => say({ t: 'renew', state }) },
  { retryMinMs: retryMinMs ?? 200, retryMaxMs: 1000 },
);
mapping.start();
process.stdin.resume();
process.stdin.on('end', async () => {
  await mapping.stop();
  say({ t: 'stopped' });
  process.exit(0);
});

// Run by lab.test.ts through runInNs: the IPv4 addresses this process sees and its arguments.
import os from 'node:os';

const addresses = Object.values(os.networkInterfaces())
  .flat()
  .filter((a) => a?.family === 'IPv4')
  .map((a) => a?.address);
process.stdout.write(JSON.stringify({ addresses, args: process.argv.slice(2) }));

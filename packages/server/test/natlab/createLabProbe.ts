// Run by lab.test.ts as an unprivileged user: what createLab says when it cannot make namespaces.
import { createLab } from './lab.js';

try {
  const lab = await createLab();
  await lab.destroy();
  process.stdout.write('created');
} catch (err) {
  process.stdout.write((err as Error).message);
}

// A flooding client in a process of its own (the attacker is not the server's process, and the
// server's memory is then measured alone). Asked by IPC: {port, count, localAddress, head, batch};
// answers {opened, open} when the connections are made and on every {t: 'count'}.
import net from 'node:net';

const sockets = [];
let closed = 0;

async function flood({ port, count, localAddress, head, batch }) {
  for (let i = 0; i < count; i += batch) {
    const wave = [];
    for (let j = i; j < Math.min(count, i + batch); j++) {
      wave.push(
        new Promise((resolve) => {
          const c = net.connect({ port, host: '127.0.0.1', localAddress });
          sockets.push(c);
          c.on('error', () => undefined);
          c.once('connect', () => {
            if (head) c.write(head);
            resolve();
          });
          c.once('close', () => {
            closed++;
            resolve();
          });
        }),
      );
    }
    await Promise.all(wave);
  }
}

process.on('message', async (m) => {
  if (m.t === 'flood') await flood(m);
  process.send({ opened: sockets.length, open: sockets.length - closed });
});
process.on('disconnect', () => process.exit(0));

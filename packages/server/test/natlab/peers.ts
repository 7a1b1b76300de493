// Small peers the STUN lab tests run inside a network namespace (`node --import tsx peers.ts <cmd> …`):
// echo targets in home, clients and a keep-alive web server in public. Each prints one JSON line
// when it is ready or done, so the test can wait for it.
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';

const [cmd, ...args] = process.argv.slice(2);
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function fail(message: string): never {
  say({ error: message });
  process.exit(1);
}

switch (cmd) {
  case 'tcp-echo': {
    // tcp-echo <address> <port>
    const server = net.createServer((s) => s.pipe(s));
    server.listen(Number(args[1]), args[0], () => say({ ready: true }));
    break;
  }
  case 'udp-echo': {
    const s = dgram.createSocket('udp4');
    s.on('message', (m, r) => s.send(m, r.port, r.address));
    s.bind(Number(args[1]), args[0], () => say({ ready: true }));
    break;
  }
  case 'http-keepalive': {
    // http-keepalive <address> <port>: answers every request (HEAD included) and keeps connections open.
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests++;
      res.setHeader('content-length', '2');
      res.end('ok');
    });
    server.keepAliveTimeout = 600_000;
    server.listen(Number(args[1]), args[0], () => say({ ready: true }));
    process.on('SIGUSR2', () => say({ requests }));
    break;
  }
  case 'tcp-send': {
    // tcp-send <host> <port> <bytes>: sends random bytes, reads the echo, compares.
    const data = randomBytes(Number(args[2]));
    const got: Buffer[] = [];
    const s = net.connect({ host: args[0], port: Number(args[1]) });
    s.setTimeout(15_000, () => fail('timed out'));
    s.on('error', (e) => fail(e.message));
    s.on('connect', () => s.end(data));
    s.on('data', (b) => got.push(b));
    s.on('end', () => {
      const back = Buffer.concat(got);
      say({ sent: sha(data), got: sha(back), bytes: back.length, local: `${s.localAddress}:${s.localPort}` });
      process.exit(0);
    });
    break;
  }
  case 'udp-send': {
    // udp-send <host> <port> <count>: sends numbered random datagrams one by one, checks each echo.
    const count = Number(args[2]);
    const s = dgram.createSocket('udp4');
    let i = 0;
    let ok = 0;
    let current = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (i === count) {
        say({ sent: count, ok });
        process.exit(0);
      }
      current = Buffer.concat([Buffer.from(`${i}:`), randomBytes(512)]);
      i++;
      s.send(current, Number(args[1]), args[0]);
      clearTimeout(timer);
      timer = setTimeout(() => fail(`no echo for datagram ${i - 1} (${ok} ok)`), 5000);
    };
    s.on('message', (m) => {
      if (m.equals(current)) ok++;
      next();
    });
    s.bind(0, () => next());
    break;
  }
  default:
    fail(`unknown command ${cmd}`);
}

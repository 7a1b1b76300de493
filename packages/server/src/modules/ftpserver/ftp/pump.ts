// Moving bytes between a storage stream and a data connection with back-pressure both ways
// (a slow client slows the disk reads; a slow disk slows the client), counting them on the
// session. An upload cut short (the client's connection closed or reset, or ABOR) keeps what
// arrived: that is what REST + STOR and APPE resume from, as every FTP server does.
import type { Readable, Writable } from 'node:stream';

export type DataResult = 'done' | 'cut';

interface Counter {
  moved(dir: 'in' | 'out', n: number): void;
}

/** A data connection left open by the peer after we finished is closed after this long. */
const LINGER_MS = 10_000;

/** Storage (or listing) → client. 'cut' when the client went away or the transfer was aborted. */
export function pumpOut(src: Readable, dst: Writable, counter: Counter, signal: AbortSignal): Promise<DataResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const end = (r: DataResult | Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const onAbort = () => {
      src.destroy();
      dst.destroy();
      end('cut');
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    src.on('data', (chunk: Buffer) => {
      counter.moved('out', chunk.length);
      if (!dst.write(chunk)) src.pause();
    });
    dst.on('drain', () => src.resume());
    src.on('end', () => dst.end());
    src.on('error', (err) => {
      dst.destroy();
      end(err);
    });
    dst.on('finish', () => {
      setTimeout(() => dst.destroy(), LINGER_MS).unref();
      end('done');
    });
    dst.on('error', () => {
      src.destroy();
      end('cut');
    });
    dst.on('close', () => {
      src.destroy();
      end('cut');
    });
  });
}

/** Client → storage. The write is finished (kept) in every case but a storage error. */
export function pumpIn(src: Readable, dst: Writable, counter: Counter, signal: AbortSignal): Promise<DataResult> {
  return new Promise((resolve, reject) => {
    let cut = false;
    let ending = false;
    let settled = false;
    const end = (r: DataResult | Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const finishWrite = (wasCut: boolean) => {
      if (ending) return;
      ending = true;
      cut = wasCut;
      dst.end();
    };
    const onAbort = () => {
      src.destroy();
      finishWrite(true);
    };
    dst.on('finish', () => end(cut ? 'cut' : 'done'));
    dst.on('error', (err) => {
      src.destroy();
      end(err);
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    src.on('data', (chunk: Buffer) => {
      if (ending) return;
      counter.moved('in', chunk.length);
      if (!dst.write(chunk)) src.pause();
    });
    dst.on('drain', () => src.resume());
    src.on('end', () => {
      finishWrite(false);
      src.destroy();
    });
    src.on('error', () => finishWrite(true));
    src.on('close', () => finishWrite(true));
    src.resume();
  });
}

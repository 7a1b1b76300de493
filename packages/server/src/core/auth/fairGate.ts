/**
 * A cap on concurrent password checks, shared fairly between client
 * addresses. scrypt runs on libuv's thread pool (4 threads by default, also
 * used by fs and dns); a queue of checks from one address there delays every
 * other login behind it (400 concurrent bad logins held the owner's login for
 * 56 s). Here at most `limit` checks run at once, and when a slot frees the
 * next waiter is taken from the addresses in turn (round robin), so an owner
 * waits for at most one check per other waiting address, not for a flood.
 */
export class GateFullError extends Error {
  constructor() {
    super('too many password checks waiting');
  }
}

export class FairGate {
  private active = 0;
  private waiting = 0;
  /** Waiters per key; Map order is the rotation (a served key moves to the end). */
  private queues = new Map<string, Array<() => void>>();

  constructor(
    private readonly limit = 2,
    private readonly maxWaiting = 512,
  ) {}

  /** Run `fn` when a slot is free and it is `key`'s turn; GateFullError when too many wait already. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) {
      this.active++;
    } else {
      if (this.waiting >= this.maxWaiting) throw new GateFullError();
      this.waiting++;
      await new Promise<void>((resolve) => {
        const q = this.queues.get(key);
        if (q) q.push(resolve);
        else this.queues.set(key, [resolve]);
      });
    }
    try {
      return await fn();
    } finally {
      this.handOn();
    }
  }

  /** Give the finished slot to the next key in turn, or free it. */
  private handOn(): void {
    const first = this.queues.entries().next();
    if (first.done) {
      this.active--;
      return;
    }
    const [key, q] = first.value;
    const wake = q.shift() as () => void;
    this.queues.delete(key);
    if (q.length > 0) this.queues.set(key, q);
    this.waiting--;
    wake();
  }

  /** For tests and status: checks running and waiting. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting };
  }
}

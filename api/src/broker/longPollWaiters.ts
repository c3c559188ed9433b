/**
 * Long-polling consumers waiting for a queue, on this instance. A waiter registers BEFORE it
 * tries to claim, so a notification that lands between an empty claim and the wait is not
 * lost. Waiting holds no database connection.
 */
export interface WaitTicket {
  /** Resolves when woken, at `untilMs`, or on abort, whichever is first. */
  wait(untilMs: number, signal?: AbortSignal): Promise<void>;
  cancel(): void;
}

interface Waiter {
  woken: boolean;
  resolve?: () => void;
}

export class QueueWaiters {
  private readonly byQueue = new Map<string, Set<Waiter>>();
  private closing = false;

  get closed(): boolean {
    return this.closing;
  }

  register(queue: string): WaitTicket {
    const waiter: Waiter = { woken: this.closing };
    let set = this.byQueue.get(queue);
    if (!set) this.byQueue.set(queue, (set = new Set()));
    set.add(waiter);
    const remove = () => {
      set.delete(waiter);
      if (set.size === 0 && this.byQueue.get(queue) === set) this.byQueue.delete(queue);
    };
    return {
      wait: (untilMs, signal) =>
        new Promise<void>((resolve) => {
          const finish = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', finish);
            remove();
            resolve();
          };
          const timer = setTimeout(finish, Math.max(0, untilMs - Date.now()));
          if (waiter.woken || signal?.aborted) return finish();
          waiter.resolve = finish;
          signal?.addEventListener('abort', finish, { once: true });
        }),
      cancel: remove,
    };
  }

  /** Wakes up to `count` waiters of a queue that were not woken yet, oldest first. */
  wake(queue: string, count: number): void {
    let left = count;
    for (const waiter of this.byQueue.get(queue) ?? []) {
      if (left <= 0) break;
      if (waiter.woken) continue;
      waiter.woken = true;
      waiter.resolve?.();
      left -= 1;
    }
  }

  wakeAll(): void {
    for (const queue of this.byQueue.keys()) this.wake(queue, Number.POSITIVE_INFINITY);
  }

  /** On shutdown: every waiter returns now, and new ones do not wait. */
  close(): void {
    this.closing = true;
    this.wakeAll();
  }

  /** Queues with waiters here, and how many wait on each (woken ones included). */
  queues(): Map<string, number> {
    return new Map([...this.byQueue].map(([queue, set]) => [queue, set.size]));
  }

  size(): number {
    let total = 0;
    for (const set of this.byQueue.values()) total += set.size;
    return total;
  }
}

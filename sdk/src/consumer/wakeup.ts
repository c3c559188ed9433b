/**
 * A latch for "something may be claimable now". A notify() that arrives while nobody waits is
 * remembered, so a notification between a claim and the next wait is never lost.
 */
export class Wakeup {
  private pending = false;
  private waiter: (() => void) | undefined;

  notify(): void {
    this.pending = true;
    this.waiter?.();
  }

  /** Forgets earlier notifications; call right before claiming. */
  reset(): void {
    this.pending = false;
  }

  /** Resolves on the next (or a remembered) notify(), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
    });
  }
}

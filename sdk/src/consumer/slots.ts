/** Counts running handlers so the consumer never claims more messages than it can start at once. */
export class Slots {
  private used = 0;
  private waiters: Array<() => void> = [];

  constructor(readonly size: number) {}

  get free(): number {
    return this.size - this.used;
  }

  take(): void {
    this.used++;
  }

  release(): void {
    this.used--;
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((resolve) => resolve());
  }

  /** Resolves once at least one slot is free. */
  whenFree(): Promise<void> {
    if (this.free > 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/**
 * The timers of one run of a service. Clearing them ends every one at once and refuses new ones,
 * so a callback that races the stop (a reconnect that fails just then) cannot arm a timer that
 * outlives it. Timers are unref'd: what keeps the process alive is the work, not the waiting.
 */
export class Timers {
  private readonly live = new Set<NodeJS.Timeout>();
  private closed = false;

  /** Runs `task` every `ms` until cleared. */
  every(ms: number, task: () => void): NodeJS.Timeout | undefined {
    if (this.closed) return undefined;
    const timer = setInterval(task, ms).unref();
    this.live.add(timer);
    return timer;
  }

  /** Runs `task` once after `ms`, unless cleared or cancelled first. */
  after(ms: number, task: () => void): NodeJS.Timeout | undefined {
    if (this.closed) return undefined;
    const timer = setTimeout(() => {
      this.live.delete(timer);
      task();
    }, ms).unref();
    this.live.add(timer);
    return timer;
  }

  cancel(timer: NodeJS.Timeout | undefined): void {
    if (!timer) return;
    clearTimeout(timer);
    this.live.delete(timer);
  }

  get size(): number {
    return this.live.size;
  }

  clear(): void {
    this.closed = true;
    for (const timer of this.live) clearTimeout(timer);
    this.live.clear();
  }
}

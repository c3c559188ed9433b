/**
 * How many WebSockets each credential holds on this instance, counted from the moment a handshake
 * is admitted (not when it completes), so a burst of handshakes cannot overshoot the cap.
 */
export class SocketQuota {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Counts one more socket for `key`; false (and nothing counted) when it holds `max` already. */
  take(key: string): boolean {
    const count = this.held.get(key) ?? 0;
    if (count >= this.max) return false;
    this.held.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = (this.held.get(key) ?? 0) - 1;
    if (count > 0) this.held.set(key, count);
    else this.held.delete(key);
  }
}

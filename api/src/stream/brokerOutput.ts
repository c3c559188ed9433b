/**
 * The bytes every stream of this instance has queued for its socket and not yet written out, with
 * the bytes their claims under way may still bring back. Each stream's own cap (outbox.ts) bounds
 * one stream; this bounds them all, so that many slow readers together cannot hold the broker's
 * memory: once the total reaches the cap (MINIQUEUE_STREAM_MAX_QUEUED_BYTES), no stream claims until
 * some output drains. Streams are told when there is room again.
 */
export class BrokerOutput {
  private used = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly cap: number) {}

  /** What all streams may still queue (never below 0). */
  get room(): number {
    return Math.max(0, this.cap - this.used);
  }

  /** `bytes` more (or, negative, fewer) are queued or reserved. */
  add(bytes: number): void {
    const wasFull = this.used >= this.cap;
    this.used += bytes;
    if (wasFull && this.used < this.cap) for (const listener of this.listeners) listener();
  }

  /** Calls `listener` each time the total falls below the cap; answers how to stop. */
  onRoom(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

type Listener<Args extends unknown[]> = (...args: Args) => void;
// How listeners are stored; on() and emit() keep the per-event typing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any listener of any event fits one store
type StoredListener = (...args: any[]) => void;

/**
 * A small typed event emitter that runs in browsers and Node alike. A listener that throws is
 * isolated from the others and from the emitter, which must never crash on an event.
 */
export class Emitter<Events extends Record<string, unknown[]>> {
  private readonly listeners = new Map<keyof Events, Set<StoredListener>>();

  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  off<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** Calls every listener of the event; false when there was none. */
  protected emit<E extends keyof Events>(event: E, ...args: Events[E]): boolean {
    const set = this.listeners.get(event);
    if (!set || set.size === 0) return false;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        // A broken listener must not stop message processing; surface it without throwing.
        setTimeout(() => console.error(error), 0);
      }
    }
    return true;
  }
}

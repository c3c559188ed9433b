interface NodeEvents {
  setMaxListeners(count: number, ...targets: EventTarget[]): void;
  defaultMaxListeners: number;
}

const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;

/**
 * Lets `signal` take `count` listeners without Node's MaxListenersExceededWarning: a consumer's
 * stop signal has one per running handler. Browsers do not count listeners; nothing to do there.
 */
export function allowListeners(signal: AbortSignal, count: number): void {
  const events = nodeProcess?.getBuiltinModule?.('node:events') as NodeEvents | undefined;
  if (!events || count < events.defaultMaxListeners) return;
  events.setMaxListeners(count + 1, signal);
}

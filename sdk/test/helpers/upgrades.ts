import type { SdkBroker } from './broker.js';

/** Counts the WebSocket handshakes the broker is asked for, per path, from now on. */
export function countUpgrades(env: SdkBroker): Map<string, number> {
  const counts = new Map<string, number>();
  env.broker.broker.server.listener.on('upgrade', (request) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
  });
  return counts;
}

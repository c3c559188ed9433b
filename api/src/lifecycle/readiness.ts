import type { ServiceHealth } from './service.js';

/**
 * The services whose connection the instance serves with, so that without it the instance must
 * not be sent traffic: the LISTEN connection (other instances' commits, revoked credentials) and
 * the coordination connection (which WebSocket consumer hears of which message). Both reconnect
 * by themselves; until they have, the instance is DOWN. Any other service with a problem (a job
 * whose last pass failed, rates not written) leaves it serving: DEGRADED.
 */
const NEEDED_TO_SERVE: ReadonlySet<string> = new Set(['notification-bus', 'realtime-coordinator']);

export type Readiness =
  | { status: 'UP' }
  | { status: 'DEGRADED'; degraded: string[] }
  /** `stopping`: a service is not running (the instance is stopping, or never finished starting). */
  | { status: 'DOWN'; why: 'connection-lost' | 'stopping'; services: string[] };

function* flatten(services: ServiceHealth[]): Generator<ServiceHealth> {
  for (const service of services) {
    yield service;
    if (service.parts) yield* flatten(service.parts);
  }
}

/** What the services' health says about the instance as a whole. */
export function readinessOf(services: ServiceHealth[]): Readiness {
  // Never started: not a part of this instance (a server built for tests that never listens has
  // no WebSockets). Everything a runtime starts is `starting` or later.
  const all = [...flatten(services)].filter((service) => service.state !== 'idle');
  const notRunning = all.filter((service) => service.state !== 'running').map((service) => service.name);
  if (notRunning.length > 0) return { status: 'DOWN', why: 'stopping', services: notRunning };
  const troubled = all.filter((service) => service.problem !== undefined);
  const lost = troubled.filter((service) => NEEDED_TO_SERVE.has(service.name)).map((service) => service.name);
  if (lost.length > 0) return { status: 'DOWN', why: 'connection-lost', services: lost };
  return troubled.length > 0 ? { status: 'DEGRADED', degraded: troubled.map((service) => service.name) } : { status: 'UP' };
}

/** Where a service is in its life. `idle`: never started. */
export type ServiceState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

export interface ServiceHealth {
  name: string;
  state: ServiceState;
  /** Running but not doing its work right now (no connection, its last pass failed). */
  problem?: string;
  /** A service made of others (ComposedService): theirs, in the order they started. */
  parts?: ServiceHealth[];
}

/**
 * Every background part of the broker (connections that listen, loops, scheduled jobs) starts,
 * stops and reports its health the same way, so that one owner can start them in order and stop
 * them in reverse (see ServiceGroup), and a test can check that a stop leaves nothing running.
 * `start` and `stop` may each be called more than once; a stopped service may be started again.
 */
export interface Service {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): ServiceHealth;
}

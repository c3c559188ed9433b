import { backoffDelayMs, type Backoff } from './backoff.js';
import type { Service, ServiceHealth, ServiceState } from './service.js';
import { Timers } from './timers.js';

/**
 * What every service shares (River's BaseStartStop): its state, the timers of the current run, the
 * signal that it is stopping, its health, and retrying with backoff. A service holds one and
 * passes its own start and stop work through it:
 *
 *   start = () => this.life.start(() => this.connect());
 *   stop = () => this.life.stop(() => this.client?.end());
 *
 * Starting while running, or stopping while stopped, does nothing. A stop waits for a start in
 * progress, so nothing a start opens is left behind by a stop that came meanwhile.
 */
export class Lifecycle {
  private state: ServiceState = 'idle';
  private problem?: string;
  private starting?: Promise<void>;
  private stopping?: Promise<void>;
  private retryTimer?: NodeJS.Timeout;
  /** This run's timers: cleared when the stop begins, refusing new ones until the next start. */
  timers = new Timers();

  constructor(readonly name: string) {}

  /** True from the moment a stop begins (and before the first start): loops should wind down. */
  get stopped(): boolean {
    return this.state === 'idle' || this.state === 'stopping' || this.state === 'stopped';
  }

  get running(): boolean {
    return this.state === 'running';
  }

  async start(work: () => Promise<unknown> | unknown = () => undefined): Promise<void> {
    if (this.state === 'stopping') await this.stopping;
    if (this.state === 'starting') return this.starting;
    if (this.state === 'running') return;
    // Timers armed before the first start belong to this run too; a stopped run's are spent.
    if (this.state === 'stopped') this.timers = new Timers();
    this.state = 'starting';
    this.problem = undefined;
    this.starting = (async () => {
      try {
        await work();
        this.state = 'running';
      } catch (error) {
        this.timers.clear();
        this.state = 'stopped';
        throw error;
      }
    })();
    try {
      await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  async stop(work: () => Promise<unknown> | unknown = () => undefined): Promise<void> {
    if (this.state === 'starting') await this.starting?.catch(() => undefined);
    if (this.state === 'stopping') return this.stopping;
    if (this.state !== 'running') return;
    this.state = 'stopping';
    this.timers.clear();
    this.stopping = (async () => {
      try {
        await work();
      } finally {
        this.state = 'stopped';
        this.stopping = undefined;
      }
    })();
    return this.stopping;
  }

  /** Something the service needs is missing (a connection, a pass that failed); undefined when well again. */
  report(problem: string | undefined): void {
    this.problem = problem;
  }

  health(): ServiceHealth {
    return this.problem && this.state === 'running' ? { name: this.name, state: this.state, problem: this.problem } : { name: this.name, state: this.state };
  }

  /**
   * Runs `attempt` after a backoff, again and again with a longer one each time it fails, until it
   * succeeds or the service stops. One retry at a time per service: a new one replaces a pending one.
   */
  retry(backoff: Backoff, attempt: () => Promise<unknown>, onFailure: (error: unknown) => void, count = 0): void {
    this.timers.cancel(this.retryTimer);
    this.retryTimer = this.timers.after(backoffDelayMs(count, backoff), () => {
      this.retryTimer = undefined;
      if (this.stopped) return;
      attempt().catch((error: unknown) => {
        onFailure(error);
        if (!this.stopped) this.retry(backoff, attempt, onFailure, count + 1);
      });
    });
  }
}

/** A service made of two steps, for what needs nothing more (a pool to end, a server to stop). */
export function serviceOf(name: string, steps: { start?: () => Promise<unknown>; stop: () => Promise<unknown> }): Service {
  const life = new Lifecycle(name);
  return { name, start: () => life.start(steps.start), stop: () => life.stop(steps.stop), health: () => life.health() };
}

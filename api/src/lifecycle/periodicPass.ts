import cron, { type ScheduledTask } from 'node-cron';
import { Lifecycle } from './lifecycle.js';
import type { Service, ServiceHealth } from './service.js';

/**
 * When passes run: every `everyMs` (the first after `firstAfterMs()`, to line passes up with a
 * boundary), or on a cron expression, for what is scheduled by the clock (node-cron).
 */
export type PassSchedule = { everyMs: number; firstAfterMs?: () => number } | { cron: string };

export interface PeriodicPassOptions {
  name: string;
  schedule: PassSchedule;
  /** What a failed pass is logged as, and reported as in health until a pass succeeds. */
  failure: string;
  onError(message: string, error: unknown): void;
}

const quiet = () => undefined;

/**
 * The one shape of a background loop (River's job rescuer, pg-boss's timekeeper): `runOnce()`
 * does one pass (tests call it directly), the schedule repeats it while the service runs.
 *
 * - No overlap: a tick that comes while a pass runs is skipped (a slow database makes passes
 *   rarer, never concurrent). `runOnce()` called during a pass runs another right after it, so
 *   what the caller did before calling is in the pass it waits for.
 * - A stop waits for the pass in progress (and the ones asked for), then `afterLastPass()`, so no
 *   pass outlives its service or uses a pool that has ended.
 * - Health: a failed pass is logged and reported until one succeeds; the next runs as planned.
 */
export abstract class PeriodicPass implements Service {
  readonly name: string;
  private readonly life: Lifecycle;
  private task?: ScheduledTask;
  private current?: Promise<void>;

  constructor(private readonly options: PeriodicPassOptions) {
    this.name = options.name;
    this.life = new Lifecycle(options.name);
  }

  /** One pass; throwing marks it failed. */
  protected abstract pass(): Promise<unknown>;

  /** Runs once a stop has waited for the last pass (a final write); nothing by default. A failure is logged. */
  protected async afterLastPass(): Promise<void> {}

  start(): Promise<void> {
    return this.life.start(() => this.arm(this.options.schedule));
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      // destroy, not stop: a stopped task stays in node-cron's registry for good.
      await this.task?.destroy();
      this.task = undefined;
      await this.current;
      await this.afterLastPass().catch((error: unknown) => this.options.onError(this.options.failure, error));
    });
  }

  health(): ServiceHealth {
    return this.life.health();
  }

  runOnce(): Promise<void> {
    const run = (this.current ?? Promise.resolve()).then(() => this.reported());
    const tracked: Promise<void> = run.finally(() => {
      if (this.current === tracked) this.current = undefined;
    });
    this.current = tracked;
    return tracked;
  }

  private arm(schedule: PassSchedule): void {
    if ('cron' in schedule) {
      this.task = cron.schedule(schedule.cron, () => this.tick(), {
        name: this.name,
        // node-cron's own errors go where ours do.
        logger: { info: quiet, warn: quiet, debug: quiet, error: (message, error) => this.options.onError(String(message), error) },
      });
      return;
    }
    const repeat = () => this.life.timers.every(schedule.everyMs, () => this.tick());
    if (!schedule.firstAfterMs) return void repeat();
    this.life.timers.after(schedule.firstAfterMs(), () => {
      this.tick();
      repeat();
    });
  }

  private tick(): void {
    if (!this.current && !this.life.stopped) void this.runOnce();
  }

  private async reported(): Promise<void> {
    try {
      await this.pass();
      this.life.report(undefined);
    } catch (error) {
      this.life.report(`${this.options.failure}: ${error instanceof Error ? error.message : String(error)}`);
      this.options.onError(this.options.failure, error);
    }
  }
}

import cron, { type ScheduledTask } from 'node-cron';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';

/** A background loop: `runOnce()` does one pass (tests call it directly), a JobService repeats it. */
export interface Job {
  name: string;
  runOnce(): Promise<unknown>;
}

const quiet = () => undefined;

/** A job run on a cron schedule while the service runs; a failed pass is reported, and the next one runs as planned. */
export class JobService implements Service {
  readonly name: string;
  private readonly life: Lifecycle;
  private task?: ScheduledTask;
  /** The pass in progress: a stop waits for it, so no pass outlives its service. */
  private current?: Promise<void>;

  constructor(
    private readonly job: Job,
    private readonly expression: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.name = job.name;
    this.life = new Lifecycle(job.name);
  }

  start(): Promise<void> {
    return this.life.start(() => {
      // noOverlap: a slow pass is never run twice at once on one instance.
      this.task = cron.schedule(this.expression, () => (this.current = this.pass()), {
        name: this.job.name,
        noOverlap: true,
        // A pass still running when the next tick comes is expected under load, not worth a line;
        // node-cron's own errors go where ours do.
        logger: { info: quiet, warn: quiet, debug: quiet, error: (message, error) => this.onError(error ?? message) },
      });
    });
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      // destroy, not stop: a stopped task stays in node-cron's registry for good.
      await this.task?.destroy();
      this.task = undefined;
      await this.current;
    });
  }

  health() {
    return this.life.health();
  }

  private async pass(): Promise<void> {
    try {
      await this.job.runOnce();
      this.life.report(undefined);
    } catch (error) {
      this.life.report(`last pass failed: ${error instanceof Error ? error.message : String(error)}`);
      this.onError(error);
    }
  }
}

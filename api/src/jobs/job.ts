import { PeriodicPass } from '../lifecycle/periodicPass.js';

/** A background loop: `runOnce()` does one pass (tests call it directly), a JobService repeats it. */
export interface Job {
  name: string;
  runOnce(): Promise<unknown>;
}

/** A job run on a cron schedule while the service runs (lifecycle/periodicPass.ts). */
export class JobService extends PeriodicPass {
  constructor(
    private readonly job: Job,
    expression: string,
    onError: (message: string, error: unknown) => void,
  ) {
    super({ name: job.name, schedule: { cron: expression }, failure: 'last pass failed', onError });
  }

  protected pass(): Promise<unknown> {
    return this.job.runOnce();
  }
}

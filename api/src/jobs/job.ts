import cron, { type ScheduledTask } from 'node-cron';

/** A background loop: `runOnce()` does one pass (tests call it directly), `schedule()` repeats it. */
export interface Job {
  name: string;
  runOnce(): Promise<unknown>;
}

const quiet = () => undefined;

export function scheduleJob(job: Job, expression: string, onError: (error: unknown) => void): ScheduledTask {
  // noOverlap: a slow pass is never run twice at once on one instance.
  return cron.schedule(
    expression,
    async () => {
      try {
        await job.runOnce();
      } catch (error) {
        onError(error);
      }
    },
    {
      name: job.name,
      noOverlap: true,
      // A pass still running when the next tick comes is expected under load, not worth a line;
      // node-cron's own errors go where ours do.
      logger: { info: quiet, warn: quiet, debug: quiet, error: (message, error) => onError(error ?? message) },
    },
  );
}

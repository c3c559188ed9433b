import PgBoss from 'pg-boss';
import type { Bound } from './config.js';
import { runLoad, type LoadResult } from './http.js';
import { PAYLOAD } from './scenarios/topology.js';

/**
 * pg-boss 10 (the last line that runs on Node 20), the best-known queue on PostgreSQL for Node,
 * on the same server and database as MiniQueue, in its own schema. It is a library, so it has no
 * HTTP hop: its figures are what a queue costs in PostgreSQL alone, which is the bar MiniQueue
 * sets. Maintenance and cron are off (supervise: false, schedule: false, no state monitor), so
 * nothing but the measured calls runs; its pool has as many connections as there are callers.
 */
const DATA = JSON.parse(PAYLOAD) as object;

export class PgBossBench {
  private constructor(private readonly boss: PgBoss) {}

  static async start(url: string, connections: number): Promise<PgBossBench> {
    const boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss_bench',
      application_name: 'bench-pgboss',
      max: connections,
      supervise: false,
      schedule: false,
      migrate: true,
    });
    boss.on('error', (error) => process.stderr.write(`pg-boss: ${String(error)}\n`));
    await boss.start();
    return new PgBossBench(boss);
  }

  async createQueue(name: string): Promise<void> {
    await this.boss.createQueue(name);
  }

  /** send(): one job per call, `callers` calls at once. */
  send(queue: string, bound: Bound, callers: number): Promise<LoadResult> {
    return runLoad({ concurrency: callers, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
      const id = await this.boss.send(queue, DATA);
      if (!id) throw new Error('pg-boss send stored nothing');
      return { messages: 1, requests: 1 };
    });
  }

  /** insert(): `size` jobs per call (bound.count is in batches). */
  insert(queue: string, size: number, bound: Bound, callers: number): Promise<LoadResult> {
    const jobs = Array.from({ length: size }, () => ({ name: queue, data: DATA }));
    return runLoad({ concurrency: callers, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
      await this.boss.insert(jobs);
      return { messages: size, requests: 1 };
    });
  }

  /** Puts `count` jobs on a queue for fetch to find, 500 per insert. */
  async seed(queue: string, count: number): Promise<void> {
    for (let left = count; left > 0; left -= 500) {
      await this.boss.insert(Array.from({ length: Math.min(500, left) }, () => ({ name: queue, data: DATA })));
    }
  }

  /**
   * fetch(batchSize) then complete(ids), `callers` at once, until `seeded` jobs are done or time
   * runs out. pg-boss's fetch answers [] on an error as well as on an empty queue, so an empty
   * answer ends a caller only once every seeded job was fetched.
   *
   * pg-boss's fetch sorts every queued job of the queue (ORDER BY priority, created_on over an
   * index on start_after), so its rate falls as the queue grows: the figure depends on how many
   * jobs wait. With `keepQueued`, a feeder tops the queue up so about that many always wait
   * (its inserts run in the same database, during the measurement); without it, the queue starts
   * with `seeded` jobs and drains.
   */
  async fetchComplete(queue: string, batchSize: number, bound: Bound, callers: number, backlog: { seeded: number; keepQueued?: number }): Promise<LoadResult> {
    let fetched = 0;
    let inserted = backlog.seeded;
    let running = true;
    const feeder = (async () => {
      while (running && backlog.keepQueued) {
        if (inserted - fetched < backlog.keepQueued) {
          await this.seed(queue, 500);
          inserted += 500;
        } else {
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
    })();
    try {
      return await runLoad({ concurrency: callers, maxSteps: Number.MAX_SAFE_INTEGER, maxSeconds: bound.seconds }, async () => {
        if (fetched >= bound.count) return null;
        const jobs = await this.boss.fetch(queue, { batchSize });
        if (jobs.length === 0) {
          if (!backlog.keepQueued && fetched >= inserted) return null;
          await new Promise((resolve) => setTimeout(resolve, 1));
          return { messages: 0, requests: 1 };
        }
        fetched += jobs.length;
        await this.boss.complete(
          queue,
          jobs.map((job) => job.id),
        );
        return { messages: jobs.length, requests: 2 };
      });
    } finally {
      running = false;
      await feeder;
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}

import pg from 'pg';

/**
 * What PostgreSQL was doing while a workload ran: which wait events its busy backends were in
 * (sampled from pg_stat_activity every ~20 ms on a connection of its own), and how many WAL
 * bytes the workload wrote. These say *why* a figure is what it
 * is: `Lock:object` is NOTIFY's global queue lock, `LWLock:WALWrite` / `IO:WalSync` are commits
 * waiting for the WAL flush, `CPU` is a backend running.
 */
export interface WaitShare {
  /** `type:event`, or `CPU` for an active backend that waits on nothing. */
  event: string;
  /** Share of all (sample × active backend) observations, 0..1. */
  share: number;
}

export interface DatabaseActivity {
  samples: number;
  /** Mean number of active client backends in the sampled database. */
  meanActive: number;
  waits: WaitShare[];
  /** WAL written by the whole server during the workload; null if it could not be read. */
  walBytes: number | null;
  /** The WAL insert positions before and after, for a closer look (see wal.ts). */
  walRange: { start: string; end: string } | null;
}

interface Lsn {
  lsn: string;
  bytes: bigint;
}

export class ActivitySampler {
  private client?: pg.Client;
  private timer?: NodeJS.Timeout;
  private busy = false;
  private samples = 0;
  private observations = 0;
  private readonly counts = new Map<string, number>();
  private walStart: Lsn | null = null;

  constructor(
    private readonly url: string,
    private readonly everyMs: number,
  ) {}

  async start(): Promise<void> {
    this.client = new pg.Client({ connectionString: this.url, application_name: 'bench-sampler' });
    await this.client.connect();
    this.walStart = await this.walBytes();
    this.timer = setInterval(() => void this.sample(), this.everyMs);
  }

  /**
   * The WAL insert position, in bytes. Not pg_stat_wal.wal_bytes: backends flush those counters
   * at most once a second (and idle pooled ones up to 10 s later), so a delta read right after a
   * workload misses part of it, while the insert position is exact at once.
   */
  private async walBytes(): Promise<Lsn | null> {
    try {
      const { rows } = await this.client!.query<{ lsn: string; bytes: string }>(
        "SELECT lsn::text, pg_wal_lsn_diff(lsn, '0/0')::bigint::text AS bytes FROM pg_current_wal_insert_lsn() AS lsn",
      );
      return { lsn: rows[0].lsn, bytes: BigInt(rows[0].bytes) };
    } catch {
      return null;
    }
  }

  private async sample(): Promise<void> {
    if (this.busy || !this.client) return; // never queue samples behind a slow one
    this.busy = true;
    try {
      // Only this database's client backends, and not this very query.
      const { rows } = await this.client.query<{ event: string; n: number }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS event, count(*)::int AS n
           FROM pg_stat_activity
          WHERE backend_type = 'client backend' AND state = 'active'
            AND datname = current_database() AND pid <> pg_backend_pid()
          GROUP BY 1`,
      );
      this.samples += 1;
      for (const { event, n } of rows) {
        this.counts.set(event, (this.counts.get(event) ?? 0) + n);
        this.observations += n;
      }
    } catch {
      // a failed sample is a missing sample, not a failed benchmark
    } finally {
      this.busy = false;
    }
  }

  async stop(): Promise<DatabaseActivity> {
    clearInterval(this.timer);
    while (this.busy) await new Promise((resolve) => setTimeout(resolve, 1));
    const walEnd = await this.walBytes();
    await this.client?.end();
    const waits = [...this.counts.entries()]
      .map(([event, n]) => ({ event, share: this.observations ? n / this.observations : 0 }))
      .sort((a, b) => b.share - a.share);
    return {
      samples: this.samples,
      meanActive: this.samples ? this.observations / this.samples : 0,
      waits,
      walBytes: this.walStart !== null && walEnd !== null ? Number(walEnd.bytes - this.walStart.bytes) : null,
      walRange: this.walStart !== null && walEnd !== null ? { start: this.walStart.lsn, end: walEnd.lsn } : null,
    };
  }
}

/** Runs `work` with a sampler on `url` around it. */
export async function sampled<T>(url: string, everyMs: number, work: () => Promise<T>): Promise<{ result: T; activity: DatabaseActivity }> {
  const sampler = new ActivitySampler(url, everyMs);
  await sampler.start();
  try {
    const result = await work();
    return { result, activity: await sampler.stop() };
  } catch (error) {
    await sampler.stop().catch(() => undefined);
    throw error;
  }
}

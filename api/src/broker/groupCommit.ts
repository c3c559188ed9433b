/**
 * Group commit in the broker: concurrent requests of one kind (single publishes, acks, nacks) go to
 * PostgreSQL together, as ONE statement in one transaction, instead of one commit each.
 *
 * Why: a commit waits for its WAL flush. PostgreSQL already lets concurrent commits share a flush,
 * but each request still pays a statement, a round trip and a commit record, and the broker's and
 * the database's CPU per request is what limits single-message traffic on a small machine.
 *
 * How requests are gathered, without a fixed delay: a request arriving while fewer than
 * `maxInFlight` batches run starts a batch on the next turn of the event loop (setImmediate), so
 * the requests that arrived in the same turn go with it; while all slots are busy, requests wait
 * and leave together as soon as a slot frees. So an idle broker adds no latency (a batch of one),
 * and under load the batch grows to what arrives during one commit. Each request is answered only
 * after its own batch has committed.
 *
 * A batch function reports per request (a value or an Error), so one bad request never fails the
 * others. If the statement itself fails, every request of the batch is tried again alone (unless
 * the failure is one no retry can mend, such as the database being unreachable), so a request that
 * breaks the statement fails alone and the others are stored.
 *
 * So a batch function throws ONLY when nothing of the batch was committed (its statement failed,
 * or its transaction rolled back): a throw means "try again" or "not stored", and a batch that had
 * committed would then be stored twice or denied. What it reads to answer goes in the same
 * statement or transaction as what it writes; a read it must make after its commit (an
 * explanation for what the statement left out) fails only the requests it was for, and is
 * reported in their results, never thrown. The one throw whose batch may have committed is a
 * commit the database did not confirm in time (CommitOutcomeUnknownError, db/commitBound.ts): it
 * is final, so every request of the batch is answered 503 and none is tried again on its own.
 *
 * What waits is bounded (`maxWaiting`): while the database is slower than requests arrive, the
 * waiting list would otherwise grow with every request's payload until the process runs out of
 * memory, and every answer would come later and later. One more request is refused at once, with
 * `503 overloaded` and `Retry-After`, before anything of it is stored; retrying it is safe.
 */
import { UnavailableError } from '../errors.js';

export interface GroupCommitStats {
  batches: number;
  requests: number;
  seconds: number;
  /** Requests refused because too many were waiting (503 overloaded). */
  refused: number;
}

export interface GroupCommitOptions {
  /** Requests per statement at most. */
  maxBatch: number;
  /** Where to count statements (several group commits of one kind may share one); default: its own. */
  stats?: GroupCommitStats;
  /** Batches running at once (each holds one pooled connection). */
  maxInFlight: number;
  /** Requests that may wait for a slot; one more is refused (503 overloaded). */
  maxWaiting: number;
  /** Errors after which trying requests alone would only fail again (e.g. database unavailable). */
  isFinal(error: unknown): boolean;
}

/** The bounds a broker sets for each of its group commits (brokerCore.ts). */
export type GroupCommitLimits = Pick<GroupCommitOptions, 'maxBatch' | 'maxInFlight' | 'maxWaiting'>;

export type BatchResult<R> = R | Error;

/** What a refused request is told to wait: about the time a slow batch takes to commit. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/** The smallest batch a burst is split into to use more than one slot: below it, one statement does better. */
const MIN_SHARED_BATCH = 32;

interface Waiting<I, R> {
  request: I;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export class GroupCommit<I, R> {
  private waiting: Waiting<I, R>[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Statements sent, requests they carried, and seconds they took: for the metrics and the tests. */
  readonly stats: GroupCommitStats;

  constructor(
    private readonly runBatch: (requests: I[]) => Promise<BatchResult<R>[]>,
    private readonly options: GroupCommitOptions,
  ) {
    this.stats = options.stats ?? { batches: 0, requests: 0, seconds: 0, refused: 0 };
  }

  submit(request: I): Promise<R> {
    if (this.waiting.length >= this.options.maxWaiting) {
      this.stats.refused += 1;
      return Promise.reject(
        new UnavailableError('This instance has too many requests waiting for the database; try again shortly', OVERLOADED_RETRY_AFTER_SECONDS, 'overloaded'),
      );
    }
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.batchSize());
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  /**
   * What the next batch takes: a burst that one statement could carry is shared among the free
   * slots (in chunks of at least MIN_SHARED_BATCH), so the statements run side by side on
   * PostgreSQL's cores instead of one after the other. A stream that sends 256 publishes at once
   * waited for one 256-row statement per round; two of 128 commit together in about the time of one.
   */
  private batchSize(): number {
    const free = this.options.maxInFlight - this.inFlight;
    const shared = Math.max(MIN_SHARED_BATCH, Math.ceil(this.waiting.length / free));
    return Math.min(this.options.maxBatch, shared);
  }

  private async run(batch: Waiting<I, R>[]): Promise<void> {
    this.stats.batches += 1;
    this.stats.requests += batch.length;
    const started = performance.now();
    let results: BatchResult<R>[];
    try {
      results = await this.runBatch(batch.map((entry) => entry.request));
      this.stats.seconds += (performance.now() - started) / 1000;
    } catch (error) {
      if (batch.length === 1 || this.options.isFinal(error)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      // The statement failed as a whole: find out which request broke it by trying each alone.
      await Promise.all(batch.map((entry) => this.run([entry])));
      return;
    }
    batch.forEach((entry, index) => {
      const result = results[index];
      if (result instanceof Error) entry.reject(result);
      else entry.resolve(result);
    });
  }
}

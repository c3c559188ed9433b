import pg from 'pg';
import { CommitOutcomeUnknownError } from './errors.js';

/**
 * A bound on how long a connection waits for a commit (MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS).
 *
 * Why: a commit can wait without end while nothing is wrong with the statement. With
 * `synchronous_standby_names` set and no such standby connected, every commit waits for the
 * standby's confirmation, and neither statement_timeout nor lock_timeout covers that wait (a
 * commit's wait for synchronous replication is not a statement). Requests then hang, and so does
 * each pooled connection they hold.
 *
 * Where a commit waits, as the client sees it:
 * - a `COMMIT` (withTransaction): the whole query;
 * - a write outside a transaction (the group commits' single statements): the whole query, since
 *   the server commits it before it answers (it sends CommandComplete and ReadyForQuery together,
 *   after the commit), so its wait cannot be told from the statement's own work. Such a statement
 *   takes milliseconds; one that runs longer than the bound is cancelled like a waiting commit
 *   (its outcome is just as unknown to the client). Reads are never bounded here: they commit
 *   nothing to wait for, and statement_timeout bounds them.
 *
 * When the bound passes, the backend gets PostgreSQL's cancel request (on a connection of its own,
 * as libpq's PQcancel sends it, which a server at max_connections still takes): that ends its wait
 * ("canceling wait for synchronous replication"), but the transaction has already committed
 * locally. So whatever the query returns, its outcome is unknown: it fails with
 * CommitOutcomeUnknownError (503 with Retry-After), and the connection is closed at once rather
 * than waited for, so the pool discards it and nothing stays stuck behind it.
 */

/** What pg's client knows of its server session (not in @types/pg). */
interface Session {
  processID: number;
  secretKey: unknown;
  host: string;
  port: number;
}

/** pg's protocol connection, as far as a cancel request needs it (not in @types/pg). */
interface CancelConnection extends pg.Connection {
  connect(port: number | string, host?: string): void;
  cancel(processID: number, secretKey: unknown): void;
}

/** A cancel request that finds no server within this long is given up. */
const CANCEL_TIMEOUT_MS = 2_000;

const COMMIT = /^\s*(COMMIT|END)\s*;?\s*$/i;

type Args = unknown[];
type QueryFunction = (...args: Args) => unknown;

/** A query as pg takes it: text, or a config object (or a submittable, such as a cursor). */
interface QueryShape {
  text?: string;
  submit?: unknown;
}

const shapeOf = (args: Args): QueryShape => (typeof args[0] === 'object' && args[0] !== null ? (args[0] as QueryShape) : { text: String(args[0]) });

function isCommit(args: Args): boolean {
  const { text } = shapeOf(args);
  return typeof text === 'string' && COMMIT.test(text);
}

/**
 * Whether the statement may write, from its text: a data-changing command (in a CTE too, or
 * SELECT … FOR UPDATE, which locks rows, which commits too), or a function that writes. Read-only
 * statements commit nothing that waits.
 */
const WRITES = /\b(INSERT|UPDATE|DELETE|MERGE)\b|\b(pg_notify|nextval|setval|pg_logical_emit_message)\s*\(/i;

function isWrite(args: Args): boolean {
  const { text } = shapeOf(args);
  return typeof text === 'string' && WRITES.test(text);
}

/** Asks the server to cancel what `client`'s backend is doing; never fails, never waits. */
function sendCancel(client: pg.ClientBase): void {
  const session = client as unknown as Session;
  const connection = new pg.Connection() as CancelConnection;
  connection.on('error', () => undefined);
  connection.on('connect', () => {
    connection.cancel(session.processID, session.secretKey);
    connection.stream.end();
  });
  const giveUp = setTimeout(() => connection.stream.destroy(), CANCEL_TIMEOUT_MS);
  giveUp.unref();
  connection.stream.once('close', () => clearTimeout(giveUp));
  if (session.host?.startsWith('/')) connection.connect(`${session.host}/.s.PGSQL.${session.port}`);
  else connection.connect(session.port, session.host);
}

/** A query in flight; `fail` answers it at once (its own answer, when it comes, is dropped). */
interface Call {
  fail(error: Error): void;
}

/**
 * One client's watch over its commits. A connection runs one query at a time, as every user of
 * a pooled connection sends them; the watch follows the one that is running.
 */
class CommitWatch {
  private timer?: NodeJS.Timeout;
  private expired = false;
  private readonly running = new Set<Call>();

  constructor(
    private readonly client: pg.ClientBase,
    private readonly timeoutMs: number,
  ) {}

  run(query: QueryFunction, args: Args): unknown {
    // A closed connection fails on its own; a cursor-like query is not the broker's kind of write.
    if (this.expired || typeof shapeOf(args).submit === 'function') return query(...args);
    // Inside a transaction a write commits only with its COMMIT, which is bounded in turn.
    const bounded = isCommit(args) || (isWrite(args) && this.client.getTransactionStatus() === 'I');
    if (!bounded) return query(...args);
    this.start();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      const answer = this.track((error, result) => callback(error, result));
      args[last] = answer;
      return query(...args);
    }
    return new Promise((resolve, reject) => {
      const answer = this.track((error, result) => (error ? reject(error) : resolve(result)));
      (query(...args) as Promise<unknown>).then(
        (result) => answer(undefined, result),
        (error: unknown) => answer(error),
      );
    });
  }

  /** The one answer a bounded query gets: its own, or the unknown outcome when the bound passes first. */
  private track(answer: (error: unknown, result?: unknown) => void): (error: unknown, result?: unknown) => void {
    let answered = false;
    const call: Call = { fail: (error) => once(error) };
    const once = (error: unknown, result?: unknown) => {
      if (answered) return;
      answered = true;
      this.running.delete(call);
      if (this.running.size === 0) this.stop();
      answer(error, result);
    };
    this.running.add(call);
    return once;
  }

  private start(): void {
    this.stop();
    this.timer = setTimeout(() => this.expire(), this.timeoutMs);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private expire(): void {
    this.timer = undefined;
    this.expired = true;
    sendCancel(this.client);
    // Answered before the connection closes, so that the caller hears of the unknown outcome and
    // not of a lost connection; ended, so that the pool discards it on release (an ended client
    // is never lent again) and pg closes its socket at once.
    for (const call of [...this.running]) call.fail(new CommitOutcomeUnknownError(this.timeoutMs));
    (this.client as pg.Client).end().catch(() => undefined);
  }
}

const watched = new WeakSet<pg.ClientBase>();

/** From now on, each of `client`'s commits waits at most `timeoutMs` (see above). */
export function boundCommits(client: pg.ClientBase, timeoutMs: number): void {
  if (watched.has(client)) return;
  watched.add(client);
  const watch = new CommitWatch(client, timeoutMs);
  // What the client's query is now: a wrapper of its own (TargetedClient's watch for read-only
  // servers), or else the class's method, looked up at each call rather than bound once, so that
  // whatever wraps the class's method later (the tests' statement counters) still sees every statement.
  const own = Object.hasOwn(client, 'query') ? (client.query as QueryFunction) : undefined;
  const ownClass = Object.getPrototypeOf(client) as { query: QueryFunction };
  const query: QueryFunction = own ? (...args) => own.apply(client, args) : (...args) => ownClass.query.apply(client, args);
  client.query = ((...args: Args) => watch.run(query, args)) as typeof client.query;
}

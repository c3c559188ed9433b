import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { messagePublish, type PublishedRow, type PublishRowItem } from '../db/queries/messagePublish.js';
import { idempotencyFind, type IdempotencyRow } from '../db/queries/idempotency.js';
import { transitionsOf, type Changes } from './changes.js';
import { GroupCommit, type BatchResult, type GroupCommitLimits } from './groupCommit.js';
import { endPublishSpan, startPublishSpan, tracing } from '../tracing/spans.js';
import { withValidTraceContext, withoutTraceHeaders } from '../tracing/traceContext.js';
import { BoundedTopics, queueFull, refusedCopies, withinBounds, type RefusedCopy, type Unblocked } from './bounds.js';
import { announceRouted } from './ordering.js';

export interface PublishItem {
  payload: string;
  headers: Record<string, string>;
  delaySeconds: number;
  /** Seconds after the publish when it expires; undefined: only its queues' TTL applies. */
  expiresInSeconds?: number;
  /** 0-9; undefined: 0. Only queues with a max_priority order by it. */
  priority?: number;
  /** The group fair queues share out by; undefined: the ordering key, else the empty key. */
  groupKey?: string;
  orderingKey?: string;
  idempotencyKey?: string;
}

export interface PublishOutcome {
  message_ids: string[];
  queues: string[];
  duplicate: boolean;
  /** The queues that refused their copy (overflow reject_copy, full); absent when none did. */
  refused?: RefusedCopy[];
}

interface Single {
  owner: string;
  topic: string;
  item: PublishItem;
}

/** What a repeat of an idempotency key must match: topic, payload, headers and ordering key. */
export function requestHash(topic: string, item: PublishItem): string {
  // The trace context is not content: a retry is a new span with a new traceparent.
  const own = withoutTraceHeaders(item.headers);
  const headers = Object.keys(own)
    .sort()
    .map((name) => [name, own[name]]);
  // Without an ordering key the hash is what it always was, so keys stored before still match.
  const content = item.orderingKey === undefined ? [topic, item.payload, headers] : [topic, item.payload, headers, item.orderingKey];
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url');
}

/** Every publish path (HTTP, stream) stores a message's trace context only if it is valid (traceContext.ts). */
const withValidTrace = (item: PublishItem): PublishItem => {
  const headers = withValidTraceContext(item.headers);
  return headers === item.headers ? item : { ...item, headers };
};

const keyConflict = (key: string) =>
  new ConflictError('idempotency_conflict', `Idempotency-Key ${key} was already used with a different topic, payload or headers`);
/** A key belongs to its publisher: (owner, key) names it. */
const keyIdentity = (row: PublishRowItem) => (row.idempotency ? `${row.idempotency.owner}\n${row.idempotency.key}` : undefined);
const noTopic = (topic: string) => new NotFoundError('topic_not_found', `No topic found with the name ${topic}`);
const keyRequired = (topic: string) =>
  new ValidationError(
    `A queue bound to topic ${topic} requires an ordering_key; nothing was stored`,
    [{ field: 'ordering_key', message: 'is required by a queue this message would go to' }],
    'ordering_key_required',
  );

const toRowItem = (owner: string, topic: string, item: PublishItem): PublishRowItem => ({
  topic,
  payload: item.payload,
  headers: item.headers,
  delaySeconds: item.delaySeconds,
  expiresInSeconds: item.expiresInSeconds,
  priority: item.priority,
  groupKey: item.groupKey,
  orderingKey: item.orderingKey,
  idempotency: item.idempotencyKey === undefined ? undefined : { owner, key: item.idempotencyKey, hash: requestHash(topic, item) },
});

/** The answer for an item its statement stored; `refused` only when a queue refused its copy. */
function storedOutcome(row: PublishedRow, duplicate: boolean): PublishOutcome {
  const refused = refusedCopies(row.refused_copies);
  const outcome: PublishOutcome = { message_ids: row.message_ids, queues: row.queues, duplicate };
  return refused ? { ...outcome, refused } : outcome;
}

/** The answer for a keyed item that its statement did not store: the earlier publish's, if it matches. */
function repeatOf(row: IdempotencyRow | undefined, topic: string, hash: string, key: string): PublishOutcome {
  if (!row) throw new ConflictError('idempotency_conflict', `Idempotency-Key ${key} changed hands during this publish; try again`);
  if (row.topic_name !== topic || row.request_hash !== hash) throw keyConflict(key);
  const refused = refusedCopies(row.refused);
  const outcome: PublishOutcome = { message_ids: row.message_ids, queues: row.queues, duplicate: true };
  return refused ? { ...outcome, refused } : outcome;
}

/**
 * Publishing. A single publish joins whatever other single publishes are in flight in one
 * statement and one commit (group commit); a batch is one statement of its own, all or nothing.
 * Idempotency keys are claimed in the statement that stores the messages, so a failed publish
 * frees its key, and a concurrent repeat waits for the first publish and then gets its ids.
 */
export class Publisher {
  private readonly singles: GroupCommit<Single, PublishOutcome>;
  /**
   * Single publishes with an ordering key: one statement at a time, in arrival order, so the frames
   * of a stream (or requests sent one after another) are stored in the order they came. Two
   * statements at once would take their key's next positions in whichever order they reached the
   * key's group row.
   */
  private readonly keyedSingles: GroupCommit<Single, PublishOutcome>;
  /** The same two for topics with a bounded queue: their statement holds the queues' locks (bounds.ts). */
  private readonly boundedSingles: GroupCommit<Single, PublishOutcome>;
  private readonly boundedKeyedSingles: GroupCommit<Single, PublishOutcome>;
  /** Topics this instance has seen a bounded queue bound to. */
  private readonly bounds = new BoundedTopics();

  constructor(
    private readonly deps: {
      pool: Pool;
      changes: Changes;
      /** Told, after each commit, how many messages were published to each topic. */
      countPublishes?: (topic: string, count: number) => void;
      /** Told, after each commit, how many copies a full reject_copy queue refused. */
      countRefusedCopies?: (queue: string, count: number) => void;
      idempotencyTtlHours: number;
      groupCommit: GroupCommitLimits;
    },
  ) {
    const options = { ...deps.groupCommit, isFinal: isDatabaseUnavailable, stats: { batches: 0, requests: 0, seconds: 0, refused: 0 } };
    this.singles = new GroupCommit((requests) => this.publishSingles(requests), options);
    this.keyedSingles = new GroupCommit((requests) => this.publishSingles(requests), { ...options, maxInFlight: 1 });
    // One bounded statement at a time: they would only wait for each other's queue locks, and
    // what arrives meanwhile leaves as one larger statement (bench: phase bounded).
    this.boundedSingles = new GroupCommit((requests) => this.publishSingles(requests, true), { ...options, maxInFlight: 1 });
    this.boundedKeyedSingles = new GroupCommit((requests) => this.publishSingles(requests, true), { ...options, maxInFlight: 1 });
  }

  get groupCommitStats() {
    return this.singles.stats;
  }

  publishOne(owner: string, topic: string, given: PublishItem): Promise<PublishOutcome> {
    const item = withValidTrace(given);
    const bounded = this.bounds.has(topic);
    const commit = item.orderingKey === undefined ? (bounded ? this.boundedSingles : this.singles) : bounded ? this.boundedKeyedSingles : this.keyedSingles;
    if (!tracing.enabled) return commit.submit({ owner, topic, item });
    const { span, headers } = startPublishSpan(topic, item.headers);
    return commit.submit({ owner, topic, item: { ...item, headers } }).then(
      (outcome) => (endPublishSpan(span, outcome), outcome),
      (error: Error) => {
        endPublishSpan(span, error);
        throw error;
      },
    );
  }

  /** Up to 500 items to one topic, all stored or none (a key conflict rolls the whole batch back). */
  async publishBatch(owner: string, topic: string, given: PublishItem[]): Promise<PublishOutcome[]> {
    const items = given.map(withValidTrace);
    if (!tracing.enabled) return this.publishBatchOf(owner, topic, items);
    const traced = items.map((item) => startPublishSpan(topic, item.headers));
    try {
      const outcomes = await this.publishBatchOf(
        owner,
        topic,
        items.map((item, index) => ({ ...item, headers: traced[index].headers })),
      );
      traced.forEach(({ span }, index) => endPublishSpan(span, outcomes[index]));
      return outcomes;
    } catch (error) {
      for (const { span } of traced) endPublishSpan(span, error as Error);
      throw error;
    }
  }

  private async publishBatchOf(owner: string, topic: string, items: PublishItem[]): Promise<PublishOutcome[]> {
    const rowItems = items.map((item) => toRowItem(owner, topic, item));
    // A key repeated within the batch: the first item is stored, the others must match it.
    const firstOfKey = new Map<string, number>();
    rowItems.forEach((row, index) => {
      if (!row.idempotency) return;
      const first = firstOfKey.get(row.idempotency.key);
      if (first === undefined) firstOfKey.set(row.idempotency.key, index);
      else if (rowItems[first].idempotency?.hash !== row.idempotency.hash) throw keyConflict(row.idempotency.key);
    });
    const firstIndex = (index: number) => {
      const key = rowItems[index].idempotency?.key;
      return key === undefined ? index : (firstOfKey.get(key) as number);
    };
    const sent = rowItems.map((_, index) => index).filter((index) => firstIndex(index) === index);
    const publishAll = async (db: Queryable, bounded: boolean) => {
      const rows = await messagePublish(
        db,
        sent.map((index) => rowItems[index]),
        this.deps.idempotencyTtlHours,
        true,
        bounded,
      );
      if (!rows.every((row) => row.topic_exists)) throw noTopic(topic);
      if (rows.some((row) => row.refused)) throw keyRequired(topic);
      // Nothing was stored: a queue of the topic is bounded now (published again, bounded, below).
      if (rows.some((row) => row.bounded)) return undefined;
      const full = rows.find((row) => row.full_queue);
      if (full) throw queueFull(full.full_queue as string, full.full_max_messages, full.full_max_bytes);
      const taken = await this.takenKeys(
        db,
        sent.map((index) => rowItems[index]),
        rows,
      );
      // Every repeat must match its earlier publish, else the whole batch is undone (thrown inside).
      const outcomes = new Map(
        sent.map((index, position) => {
          const row = rowItems[index];
          const own = rows[position];
          const outcome: PublishOutcome = own.stored
            ? storedOutcome(own, false)
            : repeatOf(taken.get(keyIdentity(row) as string), topic, row.idempotency?.hash as string, row.idempotency?.key as string);
          return [index, outcome];
        }),
      );
      return { rows, outcomes };
    };
    // Keys make it a transaction: a key taken with other content must undo what this batch stored.
    const plain = this.bounds.has(topic)
      ? undefined
      : firstOfKey.size > 0
        ? await withTransaction(this.deps.pool, (tx) => publishAll(tx, false))
        : await publishAll(this.deps.pool, false);
    if (!plain) this.bounds.add(topic);
    const { rows, outcomes } = plain ?? (await this.publishBounded([topic], async (tx) => (await publishAll(tx, true)) as NonNullable<typeof plain>));
    this.committed(rows, () => topic);
    return rowItems.map((_, index) => {
      const first = outcomes.get(firstIndex(index)) as PublishOutcome;
      return first.duplicate || firstIndex(index) === index ? first : { ...first, duplicate: true };
    });
  }

  /**
   * One statement for every single publish of the batch; each request gets its own outcome. With
   * an idempotency key in the batch, the statement and the read of the taken keys' earlier results
   * are one transaction: a failure of the read undoes the statement, so the batch either committed
   * with every answer known, or stored nothing and may be tried again (see groupCommit.ts). The
   * transaction also holds the taken keys' rows (ON CONFLICT locked them), so they cannot change
   * hands before they are read. A batch without keys stays one statement, its own transaction.
   */
  private async publishSingles(requests: Single[], bounded = false): Promise<BatchResult<PublishOutcome>[]> {
    const rowItems = requests.map((r) => toRowItem(r.owner, r.topic, r.item));
    // The same key twice in one statement is not possible (ON CONFLICT touches a row once): the
    // first goes, the others take its outcome.
    const firstOf = new Map<string, number>();
    const sent: number[] = [];
    rowItems.forEach((row, index) => {
      const id = keyIdentity(row);
      if (id === undefined) sent.push(index);
      else if (!firstOf.has(id)) {
        firstOf.set(id, index);
        sent.push(index);
      }
    });
    const sentItems = sent.map((index) => rowItems[index]);
    const publishAll = async (db: Queryable) => {
      const rows = await messagePublish(db, sentItems, this.deps.idempotencyTtlHours, false, bounded);
      return { rows, taken: await this.takenKeys(db, sentItems, rows) };
    };
    const { rows, taken } = bounded
      ? await this.publishBounded(
          requests.map((r) => r.topic),
          publishAll,
        )
      : firstOf.size > 0
        ? await withTransaction(this.deps.pool, publishAll)
        : await publishAll(this.deps.pool);
    // Committed: from here on every request is answered from what is in memory.
    this.committed(rows, (position) => requests[sent[position]].topic);
    const bySent = new Map(sent.map((index, position) => [index, rows[position]]));
    const rowOf = (index: number) => {
      const id = keyIdentity(rowItems[index]);
      return bySent.get(id === undefined ? index : (firstOf.get(id) as number)) as PublishedRow;
    };
    const again = await this.publishAgainBounded(requests.filter((_, index) => rowOf(index).bounded));
    return rowItems.map((row, index) => {
      const id = keyIdentity(row);
      const firstIndex = id === undefined ? index : (firstOf.get(id) as number);
      const own = bySent.get(firstIndex) as PublishedRow;
      try {
        if (own.bounded) return again.shift() as BatchResult<PublishOutcome>;
        if (!own.topic_exists) return noTopic(requests[index].topic);
        if (own.refused) return keyRequired(requests[index].topic);
        if (own.full_queue) return queueFull(own.full_queue, own.full_max_messages, own.full_max_bytes);
        const key = row.idempotency?.key as string;
        if (!own.stored) return repeatOf(taken.get(id as string), requests[index].topic, row.idempotency?.hash as string, key);
        if (firstIndex === index) return storedOutcome(own, false);
        // A repeat of an item of this same statement.
        if (rowItems[firstIndex].idempotency?.hash !== row.idempotency?.hash) return keyConflict(key);
        return storedOutcome(own, true);
      } catch (error) {
        return error as Error;
      }
    });
  }

  /**
   * Requests a plain statement left out because a queue of their topic is bounded (another
   * instance bounded it, or this one had not seen it yet): published again, bounded, in order.
   * Their first statement committed the others, so a failure here is theirs alone, never thrown.
   */
  private async publishAgainBounded(requests: Single[]): Promise<BatchResult<PublishOutcome>[]> {
    if (requests.length === 0) return [];
    for (const request of requests) this.bounds.add(request.topic);
    try {
      return await this.publishSingles(requests, true);
    } catch (error) {
      return requests.map(() => error as Error);
    }
  }

  /** `publish` in the transaction that holds the bounded queues of `topics` (bounds.ts); the room it made is announced. */
  private async publishBounded<T>(topics: string[], publish: (tx: Queryable) => Promise<T>): Promise<T> {
    const unique = [...new Set(topics)];
    const { result, boundedTopics, unblocked } = await withinBounds(this.deps.pool, unique, publish);
    this.bounds.update(unique, boundedTopics);
    this.announceUnblocked(unblocked);
    return result;
  }

  /** What making room did: ordering-key heads made claimable, and dead letters routed to a dead-letter topic (published there). */
  private announceUnblocked(rows: Unblocked): void {
    if (rows.length === 0) return;
    const routed = rows.flatMap((row) => (row.topic_name === null ? [] : [{ ...row, topic_name: row.topic_name, first_copy: row.first_copy === true }]));
    if (routed.length > 0) announceRouted(this.deps.changes, routed);
    const unblocked = rows.filter((row) => row.topic_name === null);
    if (unblocked.length === 0) return;
    this.deps.changes.committed(
      transitionsOf(
        'UNBLOCKED',
        unblocked.map((row) => ({ queue: row.queue_name, id: row.id, availableAt: row.available_at, delayed: row.delayed })),
      ),
    );
  }

  /**
   * The earlier publishes of the keys a statement found taken, read after it in its transaction
   * (the statement waited for any publish of the same key still in flight, so that one is committed
   * now, and a new statement's snapshot sees it).
   */
  private async takenKeys(db: Queryable, sent: PublishRowItem[], rows: PublishedRow[]): Promise<Map<string, IdempotencyRow>> {
    const wanted = sent.filter((row, position) => row.idempotency && rows[position].topic_exists && !rows[position].stored);
    if (wanted.length === 0) return new Map();
    const found = await idempotencyFind(
      db,
      wanted.map((row) => row.idempotency as { owner: string; key: string }),
    );
    return new Map(found.map((row) => [`${row.owner}\n${row.key}`, row]));
  }

  private countRefused(rows: PublishedRow[]): void {
    const count = this.deps.countRefusedCopies;
    if (!count) return;
    for (const row of rows) if (row.stored && row.refused_copies) for (const refused of row.refused_copies) count(refused.queue, 1);
  }

  /** `topicOf(i)`: the topic row i was published to. */
  private committed(rows: PublishedRow[], topicOf: (position: number) => string): void {
    // Copies stored BLOCKED behind their key's head are told as such: they wake no consumer.
    const moved = rows
      .filter((row) => row.stored)
      .flatMap((row) => {
        const blocked = row.blocked_ids && row.blocked_ids.length > 0 ? new Set(row.blocked_ids) : undefined;
        return row.message_ids.map((id, index) => ({
          id,
          queue: row.queues[index],
          availableAt: row.available_at,
          delayed: row.delayed,
          blocked: blocked?.has(id),
        }));
      });
    this.deps.changes.committed(transitionsOf('PUBLISHED', moved));
    this.countRefused(rows);
    if (!this.deps.countPublishes) return;
    const perTopic = new Map<string, number>();
    rows.forEach((row, position) => {
      if (row.stored) perTopic.set(topicOf(position), (perTopic.get(topicOf(position)) ?? 0) + 1);
    });
    for (const [topic, count] of perTopic) this.deps.countPublishes(topic, count);
  }
}

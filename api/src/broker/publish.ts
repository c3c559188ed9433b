import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { messagePublish, type PublishedRow, type PublishRowItem } from '../db/queries/messagePublish.js';
import { idempotencyFind, type IdempotencyRow } from '../db/queries/idempotency.js';
import { transitionsOf, type Changes } from '../realtime/changes.js';
import { GroupCommit, type BatchResult } from './groupCommit.js';

export interface PublishItem {
  payload: string;
  headers: Record<string, string>;
  delaySeconds: number;
  orderingKey?: string;
  idempotencyKey?: string;
}

export interface PublishOutcome {
  message_ids: string[];
  queues: string[];
  duplicate: boolean;
}

interface Single {
  owner: string;
  topic: string;
  item: PublishItem;
}

/** What a repeat of an idempotency key must match: topic, payload, headers and ordering key. */
export function requestHash(topic: string, item: PublishItem): string {
  const headers = Object.keys(item.headers).sort().map((name) => [name, item.headers[name]]);
  // Without an ordering key the hash is what it always was, so keys stored before still match.
  const content = item.orderingKey === undefined ? [topic, item.payload, headers] : [topic, item.payload, headers, item.orderingKey];
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url');
}

const keyConflict = (key: string) =>
  new ConflictError('idempotency_conflict', `Idempotency-Key ${key} was already used with a different topic, payload or headers`);
/** A key belongs to its publisher: (owner, key) names it. */
const keyIdentity = (row: PublishRowItem) => (row.idempotency ? `${row.idempotency.owner}\n${row.idempotency.key}` : undefined);
const noTopic = (topic: string) => new NotFoundError('topic_not_found', `No topic found with the name ${topic}`);
const keyRequired = (topic: string) =>
  new ValidationError(`A queue bound to topic ${topic} requires an ordering_key; nothing was stored`, [
    { field: 'ordering_key', message: 'is required by a queue this message would go to' },
  ], 'ordering_key_required');

const toRowItem = (owner: string, topic: string, item: PublishItem): PublishRowItem => ({
  topic,
  payload: item.payload,
  headers: item.headers,
  delaySeconds: item.delaySeconds,
  orderingKey: item.orderingKey,
  idempotency: item.idempotencyKey === undefined ? undefined : { owner, key: item.idempotencyKey, hash: requestHash(topic, item) },
});

/** The answer for a keyed item that its statement did not store: the earlier publish's, if it matches. */
function repeatOf(row: IdempotencyRow | undefined, topic: string, hash: string, key: string): PublishOutcome {
  if (!row) throw new ConflictError('idempotency_conflict', `Idempotency-Key ${key} changed hands during this publish; try again`);
  if (row.topic_name !== topic || row.request_hash !== hash) throw keyConflict(key);
  return { message_ids: row.message_ids, queues: row.queues, duplicate: true };
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

  constructor(
    private readonly deps: {
      pool: Pool;
      changes: Changes;
      /** Told, after each commit, how many messages were published to each topic. */
      countPublishes?: (topic: string, count: number) => void;
      idempotencyTtlHours: number;
      groupCommit: { maxBatch: number; maxInFlight: number };
    },
  ) {
    const options = { ...deps.groupCommit, isFinal: isDatabaseUnavailable, stats: { batches: 0, requests: 0, seconds: 0 } };
    this.singles = new GroupCommit((requests) => this.publishSingles(requests), options);
    this.keyedSingles = new GroupCommit((requests) => this.publishSingles(requests), { ...options, maxInFlight: 1 });
  }

  get groupCommitStats() {
    return this.singles.stats;
  }

  publishOne(owner: string, topic: string, item: PublishItem): Promise<PublishOutcome> {
    const commit = item.orderingKey === undefined ? this.singles : this.keyedSingles;
    return commit.submit({ owner, topic, item });
  }

  /** Up to 500 items to one topic, all stored or none (a key conflict rolls the whole batch back). */
  async publishBatch(owner: string, topic: string, items: PublishItem[]): Promise<PublishOutcome[]> {
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
    const publishAll = async (db: Queryable) => {
      const rows = await messagePublish(db, sent.map((index) => rowItems[index]), this.deps.idempotencyTtlHours, true);
      if (!rows.every((row) => row.topic_exists)) throw noTopic(topic);
      if (rows.some((row) => row.refused)) throw keyRequired(topic);
      const taken = await this.takenKeys(db, sent.map((index) => rowItems[index]), rows);
      // Every repeat must match its earlier publish, else the whole batch is undone (thrown inside).
      const outcomes = new Map(
        sent.map((index, position) => {
          const row = rowItems[index];
          const own = rows[position];
          const outcome: PublishOutcome = own.stored
            ? { message_ids: own.message_ids, queues: own.queues, duplicate: false }
            : repeatOf(taken.get(keyIdentity(row) as string), topic, row.idempotency?.hash as string, row.idempotency?.key as string);
          return [index, outcome];
        }),
      );
      return { rows, outcomes };
    };
    // Keys make it a transaction: a key taken with other content must undo what this batch stored.
    const { rows, outcomes } = firstOfKey.size > 0 ? await withTransaction(this.deps.pool, publishAll) : await publishAll(this.deps.pool);
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
  private async publishSingles(requests: Single[]): Promise<BatchResult<PublishOutcome>[]> {
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
      const rows = await messagePublish(db, sentItems, this.deps.idempotencyTtlHours);
      return { rows, taken: await this.takenKeys(db, sentItems, rows) };
    };
    const { rows, taken } = firstOf.size > 0 ? await withTransaction(this.deps.pool, publishAll) : await publishAll(this.deps.pool);
    // Committed: from here on every request is answered from what is in memory.
    this.committed(rows, (position) => requests[sent[position]].topic);
    const bySent = new Map(sent.map((index, position) => [index, rows[position]]));
    return rowItems.map((row, index) => {
      const id = keyIdentity(row);
      const firstIndex = id === undefined ? index : (firstOf.get(id) as number);
      const own = bySent.get(firstIndex) as PublishedRow;
      try {
        if (!own.topic_exists) return noTopic(requests[index].topic);
        if (own.refused) return keyRequired(requests[index].topic);
        const key = row.idempotency?.key as string;
        if (!own.stored) return repeatOf(taken.get(id as string), requests[index].topic, row.idempotency?.hash as string, key);
        if (firstIndex === index) return { message_ids: own.message_ids, queues: own.queues, duplicate: false };
        // A repeat of an item of this same statement.
        if (rowItems[firstIndex].idempotency?.hash !== row.idempotency?.hash) return keyConflict(key);
        return { message_ids: own.message_ids, queues: own.queues, duplicate: true };
      } catch (error) {
        return error as Error;
      }
    });
  }

  /**
   * The earlier publishes of the keys a statement found taken, read after it in its transaction
   * (the statement waited for any publish of the same key still in flight, so that one is committed
   * now, and a new statement's snapshot sees it).
   */
  private async takenKeys(db: Queryable, sent: PublishRowItem[], rows: PublishedRow[]): Promise<Map<string, IdempotencyRow>> {
    const wanted = sent.filter((row, position) => row.idempotency && rows[position].topic_exists && !rows[position].stored);
    if (wanted.length === 0) return new Map();
    const found = await idempotencyFind(db, wanted.map((row) => row.idempotency as { owner: string; key: string }));
    return new Map(found.map((row) => [`${row.owner}\n${row.key}`, row]));
  }

  /** `topicOf(i)`: the topic row i was published to. */
  private committed(rows: PublishedRow[], topicOf: (position: number) => string): void {
    // Copies stored BLOCKED behind their key's head are told as such: they wake no consumer.
    const moved = rows.filter((row) => row.stored).flatMap((row) => {
      const blocked = row.blocked_ids && row.blocked_ids.length > 0 ? new Set(row.blocked_ids) : undefined;
      return row.message_ids.map((id, index) => ({
        id, queue: row.queues[index], availableAt: row.available_at, delayed: row.delayed, blocked: blocked?.has(id),
      }));
    });
    this.deps.changes.committed(transitionsOf('PUBLISHED', moved));
    if (!this.deps.countPublishes) return;
    const perTopic = new Map<string, number>();
    rows.forEach((row, position) => {
      if (row.stored) perTopic.set(topicOf(position), (perTopic.get(topicOf(position)) ?? 0) + 1);
    });
    for (const [topic, count] of perTopic) this.deps.countPublishes(topic, count);
  }
}

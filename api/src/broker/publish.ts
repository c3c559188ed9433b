import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { ConflictError, NotFoundError } from '../errors.js';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { messageInsertFanout, type FanoutItem } from '../db/queries/message.js';
import { idempotencyClaim, idempotencyFind, idempotencyRecord } from '../db/queries/idempotency.js';

export interface PublishItem extends FanoutItem {
  idempotencyKey?: string;
}

export interface PublishOutcome {
  message_ids: string[];
  queues: string[];
  duplicate: boolean;
}

interface Fanned {
  ids: string[];
  queues: string[];
}

/**
 * How many queues each topic had at the last publish. Only a guess for sizing the id list: the
 * statement itself checks it and reports the real count when the guess was short.
 */
const queueCountHints = new Map<string, number>();
const MAX_HINTS = 10_000;

async function fanOut(db: Queryable, topic: string, items: FanoutItem[]): Promise<Fanned[]> {
  let guess = Math.max(queueCountHints.get(topic) ?? 1, 1);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // UUIDv7: made here, time-ordered, so index inserts stay local.
    const ids = Array.from({ length: items.length * guess }, () => uuidv7());
    const result = await messageInsertFanout(db, topic, items, ids);
    if (!result.topicExists) throw new NotFoundError(`No topic found with the name ${topic}`);
    const perItem = result.queueCount;
    if (perItem * items.length <= ids.length) {
      if (queueCountHints.size >= MAX_HINTS) queueCountHints.clear();
      queueCountHints.set(topic, perItem);
      const queueOf = new Map(result.inserted.map((row) => [row.id, row.queue]));
      return items.map((_, index) => {
        const itemIds = ids.slice(index * perItem, (index + 1) * perItem);
        return { ids: itemIds, queues: itemIds.map((id) => queueOf.get(id) as string) };
      });
    }
    guess = perItem;
  }
  throw new ConflictError(`The queues bound to ${topic} kept changing during the publish; try again`);
}

/** What a repeat of an idempotency key must match: topic, payload and headers. */
export function requestHash(topic: string, item: FanoutItem): string {
  const headers = Object.keys(item.headers).sort().map((name) => [name, item.headers[name]]);
  return createHash('sha256').update(JSON.stringify([topic, item.payload, headers])).digest('base64url');
}

const keyConflict = (key: string) =>
  new ConflictError(`Idempotency-Key ${key} was already used with a different topic, payload or headers`);

/**
 * Publishes items to a topic: every bound queue gets one row per item, all in one transaction.
 * Items without idempotency keys take one statement; keyed items also claim their keys in the
 * same transaction, so a failed publish frees its keys and a concurrent repeat waits for the
 * first and then returns its ids.
 */
export async function publish(
  pool: Pool,
  request: { owner: string; topic: string; items: PublishItem[]; idempotencyTtlHours: number },
): Promise<PublishOutcome[]> {
  const { owner, topic, items } = request;
  if (items.every((item) => item.idempotencyKey === undefined)) {
    const fanned = await fanOut(pool, topic, items);
    return fanned.map((result) => ({ message_ids: result.ids, queues: result.queues, duplicate: false }));
  }
  return withTransaction(pool, async (tx) => {
    const hashes = items.map((item) => requestHash(topic, item));
    const firstIndexOfKey = new Map<string, number>();
    items.forEach((item, index) => {
      const key = item.idempotencyKey;
      if (key === undefined) return;
      const first = firstIndexOfKey.get(key);
      if (first === undefined) firstIndexOfKey.set(key, index);
      else if (hashes[first] !== hashes[index]) throw keyConflict(key);
    });
    const keys = [...firstIndexOfKey.entries()].map(([key, index]) => ({ key, hash: hashes[index] }));
    const claimed = await idempotencyClaim(tx, owner, topic, keys, request.idempotencyTtlHours);
    const earlier = new Map<string, Fanned>();
    const unclaimed = keys.filter((k) => !claimed.has(k.key));
    if (unclaimed.length > 0) {
      for (const row of await idempotencyFind(tx, owner, unclaimed.map((k) => k.key))) {
        const expected = unclaimed.find((k) => k.key === row.key);
        if (row.topic_name !== topic || row.request_hash !== expected?.hash) throw keyConflict(row.key);
        earlier.set(row.key, { ids: row.message_ids, queues: row.queues });
      }
    }
    // Fan out every item that is neither a repeat of an earlier publish nor of an earlier item here.
    const fresh = items
      .map((item, index) => ({ item, index }))
      .filter(({ item, index }) => {
        const key = item.idempotencyKey;
        return key === undefined || (!earlier.has(key) && firstIndexOfKey.get(key) === index);
      });
    const fanned = fresh.length > 0 ? await fanOut(tx, topic, fresh.map(({ item }) => item)) : [];
    const byIndex = new Map(fresh.map(({ index }, position) => [index, fanned[position]]));
    const recorded = fresh
      .filter(({ item }) => item.idempotencyKey !== undefined)
      .map(({ item, index }) => ({ key: item.idempotencyKey as string, ...(byIndex.get(index) as Fanned) }));
    if (recorded.length > 0) await idempotencyRecord(tx, owner, recorded);
    return items.map((item, index) => {
      const own = byIndex.get(index);
      if (own) return { message_ids: own.ids, queues: own.queues, duplicate: false };
      const key = item.idempotencyKey as string;
      const original = earlier.get(key) ?? (byIndex.get(firstIndexOfKey.get(key) as number) as Fanned);
      return { message_ids: original.ids, queues: original.queues, duplicate: true };
    });
  });
}

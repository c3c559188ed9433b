import type { Transition, TransitionEvent } from '../broker/changes.js';

/** The length of a bucket: what the broker counts in, and how often each instance writes its counts. */
export const BUCKET_MS = 5_000;

export const QUEUE_COUNTS = ['enqueued', 'delivered', 'acked', 'nacked', 'dead', 'redelivered', 'replayed'] as const;
export type QueueCount = (typeof QUEUE_COUNTS)[number];
export type QueueCounts = Record<QueueCount, number>;

/** Which counts a committed transition adds to (a nack that kills is a nack and a death). */
const COUNTED: Record<TransitionEvent, QueueCount[]> = {
  PUBLISHED: ['enqueued'],
  CONSUMED: ['delivered'],
  ACKED: ['acked'],
  NACKED: ['nacked'],
  NACKED_DEAD: ['nacked', 'dead'],
  REDELIVERED: ['redelivered'],
  EXPIRED_DEAD: ['dead'],
  TTL_DEAD: ['dead'],
  REPLAYED: ['replayed'],
  // A claim given back unsettled: not a count of its own, it takes its claim's delivery back (below).
  RELEASED: [],
  // The next message of an ordering key made claimable: it was counted when it was enqueued.
  UNBLOCKED: [],
};

export interface QueueBucketCounts extends QueueCounts {
  queue: string;
  /** Start of the bucket, in ms since 1970. */
  bucket: number;
}

export interface TopicBucketCounts {
  topic: string;
  bucket: number;
  published: number;
}

/** What an instance counted since its last write. */
export interface RateSnapshot {
  queues: QueueBucketCounts[];
  topics: TopicBucketCounts[];
  /** Consumers seen claiming per queue (queue, consumer id). */
  pollers: { queue: string; consumer: string }[];
}

const emptyCounts = (): QueueCounts => ({ enqueued: 0, delivered: 0, acked: 0, nacked: 0, dead: 0, redelivered: 0, replayed: 0 });
export const bucketOf = (ms: number) => Math.floor(ms / BUCKET_MS) * BUCKET_MS;

/**
 * This instance's counts, in memory, per bucket and queue (and per bucket and topic for
 * publishes). Adding is a map lookup and an increment per committed statement, never SQL; the
 * recorder takes what was counted once per bucket and writes it in one statement.
 */
export class RateCounter {
  private queues = new Map<string, QueueBucketCounts>();
  private topics = new Map<string, TopicBucketCounts>();
  private pollers = new Map<string, { queue: string; consumer: string }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts the transitions of one committed statement. */
  transitions(transitions: Transition[]): void {
    const bucket = bucketOf(this.now());
    for (const transition of transitions) {
      const counts = this.queueCounts(bucket, transition.queue);
      for (const name of COUNTED[transition.event]) counts[name] += transition.ids.length;
      if (transition.event === 'RELEASED') this.undeliver(transition, bucket);
      // Routed dead letters are publishes to their topic (the Publisher counts its own with published()).
      if (transition.topic !== undefined && transition.publishes) this.published(transition.topic, transition.publishes);
    }
  }

  /**
   * A put-back (broker/putBack.ts): its message never reached a consumer for good (its retry count
   * says so too), so its claim is taken back from the bucket that counted it (the writes add, so an
   * older bucket is corrected as well): a bucket never goes below what was really delivered in it,
   * and "delivered" keeps meaning what the dashboard says, claims that stood.
   */
  private undeliver(transition: Transition, now: number): void {
    transition.ids.forEach((_id, i) => {
      const claimedAt = transition.claimedAt?.[i];
      this.queueCounts(claimedAt ? bucketOf(claimedAt.getTime()) : now, transition.queue).delivered -= 1;
    });
  }

  /** Publishes to a topic (one per message published, whatever the number of its queues). */
  published(topic: string, count: number): void {
    if (count === 0) return;
    this.topicCounts(bucketOf(this.now()), topic).published += count;
  }

  /** A consumer asked this queue for messages (consume or receive). */
  polled(queue: string, consumer: string): void {
    this.pollers.set(`${queue}\n${consumer}`, { queue, consumer });
  }

  /** Everything counted so far; the counter starts again from nothing. */
  take(): RateSnapshot {
    const snapshot = { queues: [...this.queues.values()], topics: [...this.topics.values()], pollers: [...this.pollers.values()] };
    this.queues = new Map();
    this.topics = new Map();
    this.pollers = new Map();
    return snapshot;
  }

  /** Puts back a snapshot whose write failed, so the next write carries it (buckets older than `since` are dropped). */
  restore(snapshot: RateSnapshot, since: number): void {
    for (const row of snapshot.queues) {
      if (row.bucket < since) continue;
      const counts = this.queueCounts(row.bucket, row.queue);
      for (const name of QUEUE_COUNTS) counts[name] += row[name];
    }
    for (const row of snapshot.topics) {
      if (row.bucket >= since) this.topicCounts(row.bucket, row.topic).published += row.published;
    }
    for (const row of snapshot.pollers) this.polled(row.queue, row.consumer);
  }

  private topicCounts(bucket: number, topic: string): TopicBucketCounts {
    const key = `${bucket}\n${topic}`;
    let counts = this.topics.get(key);
    if (!counts) {
      counts = { topic, bucket, published: 0 };
      this.topics.set(key, counts);
    }
    return counts;
  }

  private queueCounts(bucket: number, queue: string): QueueBucketCounts {
    const key = `${bucket}\n${queue}`;
    let counts = this.queues.get(key);
    if (!counts) {
      counts = { queue, bucket, ...emptyCounts() };
      this.queues.set(key, counts);
    }
    return counts;
  }
}

import { expectStatus, type BenchClient, type LoadResult } from '../http.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The group key of the prober's messages. */
const QUIET_KEY = 'quiet';
/** How long a probe may take to be delivered before the run fails (it never came: a failure, not a figure). */
const PROBE_TIMEOUT_MS = 30_000;

export interface QuietLatencyOptions {
  /** Probes published, one at a time. */
  probes: number;
  /** Milliseconds between a probe's delivery and the next probe's publish. */
  gapMs: number;
  /** Consumer loops, each long-polling for up to `receive` messages and batch-acking them. */
  consumers: number;
  receive: number;
  waitSeconds: number;
}

export interface QuietLatencyResult extends LoadResult {
  /** Milliseconds from sending each probe's publish to the answer of the consumer that got it. */
  latencies: number[];
  /** Messages of other keys delivered (and acked) meanwhile. */
  others: number;
}

/**
 * Publish → delivery of a quiet key's messages on a fair queue while consumers claim and ack the
 * whole time: `consumers` loops each long-poll for up to `receive` messages and ack what they got in
 * one batch, until the last probe is in. A prober publishes one message of key `quiet` at a time
 * (its number as the payload), waits for a consumer to get it, then `gapMs` before the next. The
 * latency runs from sending the publish to the consumer's answer, both seen in this process, so
 * it holds the publish's commit, the wake-up and the claim. Messages, requests and seconds count
 * up to the last probe's delivery (not the consumers' last polls winding down).
 */
export async function quietKeyLatencies(
  consumer: BenchClient,
  publisher: BenchClient,
  names: { topic: string; queue: string },
  options: QuietLatencyOptions,
): Promise<QuietLatencyResult> {
  const receivePath = `/api/v1/queues/${names.queue}/receive`;
  const publishPath = `/api/v1/topics/${names.topic}/messages`;
  const arrivals = new Map<string, (at: bigint) => void>();
  const totals = { messages: 0, requests: 0, others: 0 };
  let stopped = false;
  const consume = async () => {
    while (!stopped) {
      const received = expectStatus(await consumer.request('POST', receivePath, { max_messages: options.receive, wait_seconds: options.waitSeconds }), 200);
      const at = process.hrtime.bigint();
      const messages: { message_id: string; payload: unknown; group_key: string | null }[] = received.body.messages;
      totals.requests += 1;
      if (messages.length === 0) continue;
      totals.messages += messages.length;
      for (const message of messages) {
        if (message.group_key === QUIET_KEY) arrivals.get(String(message.payload))?.(at);
        else totals.others += 1;
      }
      // Every claim is acked, also the last ones: a key's unacked messages would hold its turn.
      const acked = expectStatus(await consumer.request('POST', '/api/v1/messages/ack', { message_ids: messages.map((m) => m.message_id) }), 200);
      if (acked.body.failed.length > 0) throw new Error(`batch ack failed: ${JSON.stringify(acked.body.failed[0])}`);
      totals.requests += 1;
    }
  };

  const started = process.hrtime.bigint();
  const consumers = Promise.all(Array.from({ length: options.consumers }, consume));
  // A consumer that fails ends the probing at once, with its error.
  const failed = consumers.then(() => {
    throw new Error('the consumers stopped before the last probe');
  });
  failed.catch(() => {});
  const latencies: number[] = [];
  try {
    for (let i = 0; i < options.probes; i += 1) {
      // Before the first: the consumers' first polls are surely waiting (or, with a backlog, claiming).
      await sleep(options.gapMs);
      const probe = `probe-${i}`;
      let timer: NodeJS.Timeout | undefined;
      const delivered = new Promise<bigint>((resolve, reject) => {
        arrivals.set(probe, resolve);
        timer = setTimeout(() => reject(new Error(`${probe} not delivered in ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      });
      const sent = process.hrtime.bigint();
      try {
        // The delivery may come before the publish's answer: its time is taken when it comes.
        expectStatus(await publisher.request('POST', publishPath, { payload: probe, group_key: QUIET_KEY }), 201);
        totals.requests += 1;
        const at = await Promise.race([delivered, failed]);
        latencies.push(Number(at - sent) / 1e6);
      } finally {
        clearTimeout(timer);
        arrivals.delete(probe);
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { messages: totals.messages, requests: totals.requests, seconds, latencies, others: totals.others };
  } finally {
    stopped = true;
    await consumers;
  }
}

/**
 * One consume (and the ack of what it got) on each queue, before anything is measured there: a
 * broker learns that a queue has a gate (fairness among them) from its first claim, and claims
 * that ran beside that first one answer empty though messages wait (they went the plain way, and
 * the queue was marked gated by another), which would end a consume workload at once.
 */
export async function learnGates(client: BenchClient, queues: string[]): Promise<void> {
  for (const queue of queues) {
    const consumed = expectStatus(await client.request('POST', `/api/v1/queues/${queue}/consume`), 200, 204);
    if (consumed.status === 200) expectStatus(await client.request('POST', `/api/v1/messages/${consumed.body.message_id}/ack`), 200);
  }
}

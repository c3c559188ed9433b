import { readFile } from 'node:fs/promises';
import type { Bound } from '../config.js';
import { runLoad, type BenchClient, type LoadResult } from '../http.js';
import { StreamClient, type DeliveredMessage } from '../streamClient.js';
import { paced } from './rabbitmq.js';
import { PAYLOAD } from './topology.js';

/**
 * The stream workloads (`/ws/v1/stream`), driven from this process with the bench's raw client.
 * Requests are frames the client sent (publish, ack); messages are what the workload counts.
 */

/**
 * One stream, one message per publish frame, `window` publishes unconfirmed at a time (each of
 * `window` loops waits for its own confirm before the next publish). `copies` counts the
 * messages the confirms say were stored (one per bound queue).
 */
export async function streamPublish(
  baseUrl: string,
  key: string,
  topic: string,
  window: number,
  bound: Bound,
): Promise<LoadResult & { copies: number; extra: Record<string, number> }> {
  const stream = await StreamClient.open(baseUrl, key);
  try {
    if (window > stream.welcome.limits.max_unconfirmed)
      throw new Error(`window ${window} is over the broker's max_unconfirmed ${stream.welcome.limits.max_unconfirmed}`);
    let copies = 0;
    const result = await runLoad({ concurrency: window, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
      const confirm = await stream.publish({ topic, payload: PAYLOAD });
      copies += confirm.message_ids.length;
      return { messages: 1, requests: 1 };
    });
    return { ...result, copies, extra: { copies, ...messageCounts(stream) } };
  } finally {
    await stream.close();
  }
}

/** WebSocket messages per direction: how well frames were batched. */
function messageCounts(...streams: StreamClient[]): Record<string, number> {
  const sum = (pick: (s: StreamClient) => number) => streams.reduce((total, s) => total + pick(s), 0);
  return {
    wsMessagesOut: sum((s) => s.counts.messagesOut),
    wsMessagesIn: sum((s) => s.counts.messagesIn),
    framesIn: sum((s) => s.counts.framesIn),
  };
}

/**
 * `consumers` streams, each subscribed to `queue` with `prefetch`, handling one message at a
 * time: every delivery is acked at once with an ack frame of its own (no answer asked), until
 * `bound.count` were acked or time ran out. As with AMQP's basic.ack, acks are counted when
 * sent; the prefetch window bounds how many the broker has not applied yet.
 */
export async function streamConsumeAck(
  baseUrl: string | string[],
  key: string,
  queue: string,
  consumers: number,
  prefetch: number,
  bound: Bound,
): Promise<LoadResult & { extra: Record<string, number> }> {
  // Each stream as a consumer process of its own would be: its own instance, so its own lease holder.
  // With several brokers, the streams are dealt out over them in turn.
  const urls = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
  const streams = await Promise.all(
    Array.from({ length: consumers }, (_, i) => StreamClient.open(urls[i % urls.length], key, { instance: `bench-consumer-${i}` })),
  );
  try {
    let acked = 0;
    const started = process.hrtime.bigint();
    let finished = started;
    let stop!: () => void;
    const done = new Promise<void>((resolve) => (stop = resolve));
    const timer = setTimeout(() => stop(), bound.seconds * 1000);
    await Promise.all(
      streams.map((stream, i) =>
        stream.subscribe(`c${i}`, queue, prefetch, (message: DeliveredMessage) => {
          if (acked >= bound.count) return;
          stream.ack([message.message_id]);
          acked += 1;
          finished = process.hrtime.bigint();
          if (acked >= bound.count) stop();
        }),
      ),
    );
    // A broken stream ends the run with its error rather than waiting out the time.
    const broken = setInterval(() => {
      if (streams.some((stream) => stream.error)) stop();
    }, 50);
    await done;
    clearTimeout(timer);
    clearInterval(broken);
    const error = streams.find((stream) => stream.error)?.error;
    if (error) throw error;
    return { messages: acked, requests: acked, seconds: Number(finished - started) / 1e9, extra: messageCounts(...streams) };
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
  }
}

/**
 * publish → delivery latency at a steady `rate` per second: a subscriber stream (prefetch 100,
 * acking each delivery) and a publisher on another stream, both from this process; each message
 * carries its number in a header, and the time from handing its frame to the socket to its
 * delivery is one sample. The first `warmupSeconds` are not counted. Given two URLs, the
 * publisher is on the first broker and the subscriber on the second (the same database).
 */
export async function streamLatency(
  baseUrl: string | { publish: string; subscribe: string },
  keys: { publish: string; consume: string },
  names: { topic: string; queue: string },
  rate: number,
  seconds: number,
  warmupSeconds: number,
): Promise<LoadResult & { samples: number[]; extra: Record<string, number> }> {
  const urls = typeof baseUrl === 'string' ? { publish: baseUrl, subscribe: baseUrl } : baseUrl;
  const subscriber = await StreamClient.open(urls.subscribe, keys.consume);
  const publisher = await StreamClient.open(urls.publish, keys.publish);
  try {
    const sentAt = new Map<string, number>();
    const samples: number[] = [];
    await subscriber.subscribe('latency', names.queue, 100, (message) => {
      const at = performance.now();
      const id = message.headers?.['bench-seq'];
      const sent = id === undefined ? undefined : sentAt.get(id);
      if (sent !== undefined) {
        samples.push(at - sent);
        sentAt.delete(id!);
      }
      subscriber.ack([message.message_id]);
    });
    const started = process.hrtime.bigint();
    const confirms: Promise<unknown>[] = [];
    const published = await paced(rate, seconds + warmupSeconds, (i, counted) => {
      const id = String(i);
      if (counted(warmupSeconds)) sentAt.set(id, performance.now());
      confirms.push(publisher.publish({ topic: names.topic, payload: PAYLOAD, headers: { 'bench-seq': id } }));
    });
    await Promise.all(confirms);
    for (let i = 0; i < 100 && sentAt.size > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    if (subscriber.error) throw subscriber.error;
    if (sentAt.size > 0) throw new Error(`${sentAt.size} of the measured messages were never delivered`);
    return {
      messages: published,
      requests: published * 2,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      samples,
      extra: messageCounts(subscriber, publisher),
    };
  } finally {
    await subscriber.close();
    await publisher.close();
  }
}

/** VmRSS of a process now, in bytes (not the peak: what it holds at this moment). */
export async function currentRss(pid: number): Promise<number> {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `count` streams, each subscribed (prefetch 10) to an empty queue and then left alone, opened
 * `parallel` at a time. The broker's RSS is read with none open (after `settleMs`), then with all
 * of them open (after `settleMs`), and its CPU over `idleSeconds` while they sit idle.
 */
export async function idleStreams(
  baseUrl: string,
  key: string,
  queue: string,
  broker: { pid: number; cpuSeconds(): number },
  options: { count: number; parallel: number; settleMs: number; idleSeconds: number },
): Promise<{ rssNone: number; rssOpen: number; opened: number; openSeconds: number; idleCpuSeconds: number; idleSeconds: number }> {
  await sleep(options.settleMs);
  const rssNone = await currentRss(broker.pid);
  const streams: StreamClient[] = [];
  let strayDeliveries = 0;
  const started = Date.now();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: options.parallel }, async () => {
        while (next < options.count) {
          next += 1;
          const stream = await StreamClient.open(baseUrl, key);
          streams.push(stream);
          await stream.subscribe('idle', queue, 10, () => {
            strayDeliveries += 1;
          });
        }
      }),
    );
    const openSeconds = (Date.now() - started) / 1000;
    await sleep(options.settleMs);
    const rssOpen = await currentRss(broker.pid);
    const cpuBefore = broker.cpuSeconds();
    await sleep(options.idleSeconds * 1000);
    const idleCpuSeconds = broker.cpuSeconds() - cpuBefore;
    if (strayDeliveries > 0) throw new Error(`${strayDeliveries} messages reached the idle queue`);
    const closedEarly = streams.filter((stream) => !stream.isOpen).length;
    if (closedEarly > 0) throw new Error(`${closedEarly} idle streams were closed by the broker: ${streams.find((s) => s.error)?.error?.message}`);
    return { rssNone, rssOpen, opened: streams.length, openSeconds, idleCpuSeconds, idleSeconds: options.idleSeconds };
  } finally {
    // Close in chunks so the broker is not asked to release a thousand streams in one turn.
    for (let i = 0; i < streams.length; i += 100) await Promise.all(streams.slice(i, i + 100).map((stream) => stream.close()));
  }
}

export interface StoppedReaderResult {
  waiting: number;
  stallSeconds: number;
  subscriptions: number;
  prefetch: number;
  /** VmRSS before the stream opened, and the highest VmRSS seen while it did not read. */
  rssBefore: number;
  rssPeak: number;
  /** Messages the broker held for the stream (unacked) when the reader resumed, and the most seen meanwhile (read every second). */
  unackedAtEnd: number | null;
  unackedPeak: number | null;
  /** Deliveries the client read before it stopped (ws may emit a few already received), and after it resumed. */
  deliveredBefore: number;
  deliveredAfter: number;
  /** Whether the broker closed the stream meanwhile (missed heartbeats), and with which code. */
  closedByBroker: boolean;
  closeCode: number | null;
}

/**
 * A subscriber that stops reading: `waiting` messages on a queue, a stream with as many
 * subscriptions of the broker's largest prefetch as it allows (up to 10, so the windows together
 * are far over the broker's per-stream byte cap and that cap, not the prefetch, must bound it),
 * then its TCP socket paused for `stallSeconds` while the broker's RSS is sampled every 250 ms.
 * Afterwards it reads again for a moment, and is closed without a closing handshake.
 */
export async function stoppedReader(
  baseUrl: string,
  key: string,
  admin: BenchClient,
  queue: string,
  brokerPid: number,
  options: { waiting: number; stallSeconds: number; settleMs: number },
): Promise<StoppedReaderResult> {
  await sleep(options.settleMs);
  const rssBefore = await currentRss(brokerPid);
  let rssPeak = rssBefore;
  const stream = await StreamClient.open(baseUrl, key);
  const delivered = { before: 0, paused: 0, after: 0 };
  let phase: keyof typeof delivered = 'before';
  const subscriptions = Math.max(1, Math.min(10, stream.welcome.limits.max_subscriptions));
  const prefetch = stream.welcome.limits.max_prefetch;
  try {
    // Every subscribe leaves in one message, and the socket stops being read at once: the
    // answers and deliveries all meet a reader that has stopped.
    const subscribed = Array.from({ length: subscriptions }, (_, i) =>
      stream.subscribe(`stalled${i}`, queue, prefetch, () => {
        delivered[phase] += 1;
      }),
    );
    // A stream the broker closes meanwhile rejects them; that is reported, not thrown.
    for (const answer of subscribed) answer.catch(() => undefined);
    stream.pause();
    phase = 'paused';
    const deadline = Date.now() + options.stallSeconds * 1000;
    let heldPeak: number | null = null;
    for (let tick = 0; Date.now() < deadline; tick += 1) {
      rssPeak = Math.max(rssPeak, await currentRss(brokerPid));
      if (tick % 4 === 0) {
        const held = await unacked(admin, queue);
        if (held !== null) heldPeak = Math.max(heldPeak ?? 0, held);
      }
      await sleep(250);
    }
    rssPeak = Math.max(rssPeak, await currentRss(brokerPid));
    const unackedAtEnd = await unacked(admin, queue);
    phase = 'after';
    stream.resume();
    // Read what the broker had buffered for a moment, without acking (it will be released). A
    // close by the broker meanwhile (missed heartbeats) is only seen now that the socket is read.
    let last = -1;
    for (let i = 0; i < 40 && last !== delivered.after; i += 1) {
      last = delivered.after;
      await sleep(100);
    }
    const closedByBroker = !stream.isOpen;
    if (!closedByBroker) await Promise.all(subscribed);
    return {
      waiting: options.waiting,
      stallSeconds: options.stallSeconds,
      subscriptions,
      prefetch,
      rssBefore,
      rssPeak,
      unackedAtEnd,
      unackedPeak: heldPeak === null ? unackedAtEnd : Math.max(heldPeak, unackedAtEnd ?? 0),
      deliveredBefore: delivered.before + delivered.paused,
      deliveredAfter: delivered.after,
      closedByBroker,
      closeCode: stream.closeCode,
    };
  } finally {
    stream.terminate();
  }
}

/** The queue's unacked count (GET /api/v1/dashboard/queues), or null if it could not be read. */
async function unacked(admin: BenchClient, queue: string): Promise<number | null> {
  const reply = await admin.request('GET', '/api/v1/dashboard/queues');
  if (reply.status !== 200 || !Array.isArray(reply.body)) return null;
  const stats = reply.body.find((entry: { queue?: string }) => entry.queue === queue);
  return typeof stats?.unacked === 'number' ? stats.unacked : null;
}

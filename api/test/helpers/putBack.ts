import { expect } from 'vitest';
import type { TestBroker } from './broker.js';
import { eventually } from './eventually.js';
import { sample, scrape } from './metrics.js';

/** Far beyond a put-back's wake-up, well under the long polls' recheck (longPollRecheck.ts, 5 s): a lost wake-up shows. */
export const PROMPTLY_MS = 2_000;

/**
 * Stops the long polls' safety net (longPollRecheck.ts), so that a consumer woken in time was woken
 * by the put-back itself, not by a recheck that happened to fall near it.
 */
export async function withoutRecheck(mq: TestBroker): Promise<void> {
  const recheck = mq.broker.core.services.find((service) => service.name === 'waiter-recheck');
  if (!recheck) throw new Error('no waiter-recheck service');
  await recheck.stop();
}

/** A consumer long-polling a queue over a real socket: what it got, and when its answer came. */
export interface WaitingConsumer {
  answered: Promise<{ status: number; id: string | undefined; at: number }>;
}

/** Starts a long poll on the queue and waits until the broker has it waiting (`waitersBefore` + 1 waiters). */
export async function waitingConsumer(mq: TestBroker, key: string, queue: string, waitersBefore = 0): Promise<WaitingConsumer> {
  const answered = fetch(`${mq.url}/api/v1/queues/${queue}/consume?wait_seconds=8`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }).then(
    async (response) => {
      const at = Date.now();
      const body = response.status === 200 ? ((await response.json()) as { message_id: string }) : undefined;
      return { status: response.status, id: body?.message_id, at };
    },
  );
  await eventually(() => mq.broker.context.waiters.size() > waitersBefore, 'the consumer to wait');
  return { answered };
}

/** What the dashboard's charts (rates, after a write of the counts) and Prometheus say of one queue. */
export async function countsOf(mq: TestBroker, queue: string, scraper: string) {
  await mq.broker.core.rateRecorder.runOnce();
  const rates = await mq.get(`/api/v1/dashboard/rates?queue=${queue}`, mq.adminKey);
  expect(rates.status).toBe(200);
  const sum = (field: string) => (rates.body.buckets as Record<string, number>[]).reduce((total, bucket) => total + Number(bucket[field]), 0);
  const metrics = await scrape(mq, scraper);
  const counter = (name: string) => sample(metrics, `miniqueue_messages_${name}_total{queue="${queue}"}`);
  return {
    rates: { delivered: sum('delivered'), redelivered: sum('redelivered'), acked: sum('acked') },
    metrics: { consumed: counter('consumed'), released: counter('released'), redelivered: counter('redelivered'), acked: counter('acked') },
  };
}

/**
 * The counts after `claims` claims of which `putBacks` were put back and the rest acked: a put-back
 * un-counts its claim on the dashboard's charts (the message was never delivered for good), and
 * Prometheus, whose counters only go up, counts it as released (consumed − released = delivered).
 */
export const afterPutBacks = (claims: number, putBacks: number) => ({
  rates: { delivered: claims - putBacks, redelivered: 0, acked: claims - putBacks },
  metrics: { consumed: claims, released: putBacks, redelivered: 0, acked: claims - putBacks },
});

import { expectStatus, type BenchClient } from '../http.js';
import { PAYLOAD } from './topology.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Milliseconds from sending a publish to the answer of a consumer already waiting in a long poll
 * on that queue. The broker runs in another process, so we cannot see its waiters: the consumer
 * is given `settleMs` to be surely waiting before the publish is sent. With the consumer's and
 * the publisher's clients on different brokers (same database), this is the cross-instance path.
 */
export async function wakeUpLatencies(
  consumer: BenchClient,
  publisher: BenchClient,
  names: { topic: string; queue: string },
  samples: number,
  settleMs: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const waiting = consumer.request('POST', `/api/v1/queues/${names.queue}/consume?wait_seconds=10`);
    await sleep(settleMs);
    const sent = process.hrtime.bigint();
    const published = publisher.request('POST', `/api/v1/topics/${names.topic}/messages`, { payload: PAYLOAD });
    const woken = await waiting;
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
    expectStatus(await published, 201);
    // 204 would mean the wait timed out: the publish never woke it, which is a failure, not a figure.
    expectStatus(woken, 200);
    expectStatus(await consumer.request('POST', `/api/v1/messages/${woken.body.message_id}/ack`), 200);
  }
  return latencies;
}

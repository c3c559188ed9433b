import { mergeMeasurements, type Measurement } from '../measure.js';
import { latency, type Latency } from '../results.js';
import { BrokerSession, type RunContext } from '../session.js';
import { watchMonitor } from '../scenarios/monitor.js';
import { consumeAck, publishBatch, publishSingle, receiveAck, seed } from '../scenarios/throughput.js';
import { createKeys, createTopic, purge } from '../scenarios/topology.js';
import { wakeUpLatencies } from '../scenarios/wakeup.js';
import { orderingAndFilterWorkloads } from './orderingFilters.js';

/**
 * The everyday workloads, on one broker and the database the references ran in: publish (single,
 * batch, fan-out), consume (single, receive + batch ack), consume with a dashboard watching, and
 * long-poll wake-up on the same instance and, with a second broker on the same database, across
 * instances. Each consumer workload gets a queue filled up front through the batch API, so what
 * it measures does not depend on how fast the publish workload before it was.
 */
export async function runMainPhase(
  context: RunContext,
  databaseUrl: string,
): Promise<{ workloads: Measurement[]; wakeUp: { sameInstance: Latency; crossInstance: Latency } }> {
  const { config, log } = context;
  const { concurrency, batchSize } = config;
  const a = await BrokerSession.open(context, 'main-A', databaseUrl);
  const workloads: Measurement[] = [];
  try {
    const fanOutQueues = Array.from({ length: config.fanOutQueues }, (_, i) => `bench-fanout-${i + 1}`);
    await createTopic(a.admin, 'bench.single', ['bench-single']);
    await createTopic(a.admin, 'bench.batch', ['bench-batch']);
    await createTopic(a.admin, 'bench.fanout', fanOutQueues);
    await createTopic(a.admin, 'bench.monitor', ['bench-monitor']);
    await createTopic(a.admin, 'bench.wake', ['bench-wake']);
    const keys = await createKeys(a.admin);
    a.useKeys(keys);
    log('warming up');
    await a.warmUp();

    const single = await a.measure('publish_single', 'publish, 1 per request', () =>
      publishSingle(a.publisher, 'bench.single', config.publishSingle, concurrency),
    );
    workloads.push(single);

    const batch = await a.measure('publish_batch', `publish, batches of ${batchSize}`, () =>
      publishBatch(a.publisher, 'bench.batch', batchSize, config.publishBatch, concurrency),
    );
    workloads.push(batch);

    workloads.push(
      await a.measure('fan_out', `fan-out to ${config.fanOutQueues} queues, 1 per request`, async () => {
        const result = await publishSingle(a.publisher, 'bench.fanout', config.fanOut, concurrency);
        return { ...result, extra: { copies: result.copies } };
      }),
    );
    for (const queue of fanOutQueues) await purge(a.admin, queue);
    workloads.push(...(await orderingAndFilterWorkloads(context, a)));

    // Top the queues up to the consumer workloads' counts (what the publish workloads left there).
    await seed(a.publisher, 'bench.single', Math.max(0, config.consumeAck.count - single.messages));
    workloads.push(
      await a.measure('consume_ack', 'consume + ack, 1 per request', () => consumeAck(a.consumer, 'bench-single', config.consumeAck, concurrency)),
    );
    await purge(a.admin, 'bench-single');

    await seed(a.publisher, 'bench.batch', Math.max(0, config.receiveAck.count - batch.messages));
    workloads.push(
      await a.measure('receive_ack', `receive ${config.receiveSize} + batch ack`, () =>
        receiveAck(a.consumer, 'bench-batch', config.receiveSize, config.receiveAck, concurrency),
      ),
    );
    await purge(a.admin, 'bench-batch');

    workloads.push(...(await monitorComparison(context, a)));
    await purge(a.admin, 'bench-monitor');

    log('measuring: long-poll wake-up, same instance');
    const sameInstance = latency(
      await wakeUpLatencies(a.consumer, a.publisher, { topic: 'bench.wake', queue: 'bench-wake' }, config.wakeSamples, config.wakeSettleMs),
    );

    log('measuring: long-poll wake-up, across instances');
    const b = await BrokerSession.open(context, 'main-B', databaseUrl);
    let crossInstance: Latency;
    try {
      b.useKeys(keys);
      crossInstance = latency(
        await wakeUpLatencies(b.consumer, a.publisher, { topic: 'bench.wake', queue: 'bench-wake' }, config.wakeSamples, config.wakeSettleMs),
      );
    } finally {
      await b.close();
    }
    return { workloads, wakeUp: { sameInstance, crossInstance } };
  } finally {
    await a.close();
  }
}

/**
 * consume + ack with and without one /ws/monitor socket open, alternating (without, with) for a
 * few rounds on one pre-filled queue, so drift in the machine's speed falls on both sides.
 */
async function monitorComparison(context: RunContext, a: BrokerSession): Promise<Measurement[]> {
  const { config } = context;
  await seed(a.publisher, 'bench.monitor', config.monitor.count * 2 * config.monitorRounds);
  const without: Measurement[] = [];
  const withMonitor: Measurement[] = [];
  for (let round = 0; round < config.monitorRounds; round += 1) {
    without.push(
      await a.measure('consume_ack_no_monitor', 'consume + ack, no monitor socket', () =>
        consumeAck(a.consumer, 'bench-monitor', config.monitor, config.concurrency),
      ),
    );
    const watch = await watchMonitor(a.broker.url, context.adminKey);
    try {
      withMonitor.push(
        await a.measure('consume_ack_monitor', 'consume + ack, one /ws/monitor open', async () => {
          const before = { frames: watch.frames(), bytes: watch.bytes() };
          const result = await consumeAck(a.consumer, 'bench-monitor', config.monitor, config.concurrency);
          return { ...result, extra: { frames: watch.frames() - before.frames, bytes: watch.bytes() - before.bytes } };
        }),
      );
    } finally {
      await watch.close();
    }
  }
  return [mergeMeasurements(without), mergeMeasurements(withMonitor)];
}

import { wants } from '../config.js';
import type { Measurement } from '../measure.js';
import { latency } from '../results.js';
import type { IdleStreamsResult, SdkLatencyResult, StreamLatencyResult, StreamResults } from '../results.js';
import { BrokerSession, type RunContext } from '../session.js';
import { idleStreams, stoppedReader, streamConsumeAck, streamLatency, streamPublish } from '../scenarios/stream.js';
import { seed } from '../scenarios/throughput.js';
import { createKeys, createTopic, purge, type Keys } from '../scenarios/topology.js';
import { runSdkWorkloads, sdkWorkloadIds } from './sdk.js';

/**
 * The stream protocol (`/ws/v1/stream`), on databases of its own: publish with 1 and 256 in
 * flight, fan-out, consume + ack with two prefetch windows, publish → delivery latency at a
 * steady rate (all on broker `stream`, acked retention at its default, 24 h), the consume + ack and
 * latency workloads again with a second broker on the same database (`stream-B`), consume + ack again
 * on a broker with MINIQUEUE_ACKED_RETENTION_HOURS=0 (`stream-r0`), then memory on a fresh broker
 * (`stream-mem`): a thousand idle subscribed streams, and a subscriber that stops reading.
 */
export const STREAM_WORKLOADS = {
  publish1: 'stream_publish_1',
  publish: 'stream_publish_256',
  fanOut: 'stream_fan_out',
  latency: 'stream_latency',
  consumeTwoBrokers: 'stream_consume_ack_p100_two_brokers',
  latencyTwoBrokers: 'stream_latency_two_brokers',
  idle: 'stream_idle',
  stoppedReader: 'stream_stopped_reader',
} as const;

export const consumeId = (prefetch: number, retentionZero: boolean) => `stream_consume_ack_p${prefetch}${retentionZero ? '_r0' : ''}`;

interface Databases {
  main: () => Promise<string>;
  retentionZero: () => Promise<string>;
  memory: () => Promise<string>;
}

/** A few hundred publishes and acks over a stream, so the broker's stream paths are compiled. */
async function warmUpStreams(context: RunContext, session: BrokerSession, keys: Keys, options = { createTopology: true }): Promise<void> {
  const { config } = context;
  if (options.createTopology) await createTopic(session.admin, 'bench.stream.warmup', ['bench-stream-warmup']);
  await streamPublish(session.broker.url, keys.publish, 'bench.stream.warmup', config.streamWindow, { count: config.warmup, seconds: 30 });
  await streamConsumeAck(session.broker.url, keys.consume, 'bench-stream-warmup', 2, 100, { count: config.warmup, seconds: 30 });
  await purge(session.admin, 'bench-stream-warmup');
}

async function consumeWorkloads(context: RunContext, session: BrokerSession, keys: Keys, retentionZero: boolean): Promise<Measurement[]> {
  const { config } = context;
  const measured: Measurement[] = [];
  for (const prefetch of config.streamPrefetches) {
    const id = consumeId(prefetch, retentionZero);
    if (!wants(config, id)) continue;
    const topic = `bench.stream.consume${prefetch}`;
    const queue = `bench-stream-consume-${prefetch}`;
    await createTopic(session.admin, topic, [queue]);
    await seed(session.publisher, topic, config.streamConsume.count);
    const label = `stream consume + ack, prefetch ${prefetch}, ${config.streamConsumers} streams (retention ${retentionZero ? '0' : '24 h'})`;
    measured.push(
      await session.measure(id, label, () => streamConsumeAck(session.broker.url, keys.consume, queue, config.streamConsumers, prefetch, config.streamConsume)),
    );
    await purge(session.admin, queue);
  }
  return measured;
}

/** publish → delivery at the configured steady rate, measured on `session`'s database. */
async function measureLatency(
  context: RunContext,
  session: BrokerSession,
  id: string,
  label: string,
  keys: Keys,
  urls: Parameters<typeof streamLatency>[0],
  names: { topic: string; queue: string },
  others: BrokerSession[] = [],
): Promise<StreamLatencyResult> {
  const { config } = context;
  await createTopic(session.admin, names.topic, [names.queue]);
  let samples: number[] = [];
  const measurement = await session.measure(
    id,
    label,
    async () => {
      const result = await streamLatency(urls, keys, names, config.latencyRate, config.latencySeconds, config.latencyWarmupSeconds);
      samples = result.samples;
      return result;
    },
    others,
  );
  return {
    rate: config.latencyRate,
    latency: latency(samples),
    brokerCores: measurement.brokerCpuSeconds !== null ? measurement.brokerCpuSeconds / measurement.seconds : null,
    walBytesPerMessage: measurement.walBytesPerMessage,
  };
}

export async function runStreamPhase(context: RunContext, databases: Databases): Promise<StreamResults> {
  const { config, log } = context;
  const workloads: Measurement[] = [];
  let latencyResult: StreamLatencyResult | null = null;
  let latencyTwoBrokers: StreamLatencyResult | null = null;
  let idle: IdleStreamsResult | null = null;
  let stopped: StreamResults['stoppedReader'] = null;
  let sdkLatencies: SdkLatencyResult[] = [];
  const consumeIds = (zero: boolean) => config.streamPrefetches.map((prefetch) => consumeId(prefetch, zero));
  const anyOf = (list: string[]) => list.some((id) => wants(config, id));

  // Default retention (24 h): publishing, fan-out, consume + ack, latency.
  const onMainBroker = [
    STREAM_WORKLOADS.publish1,
    STREAM_WORKLOADS.publish,
    STREAM_WORKLOADS.fanOut,
    STREAM_WORKLOADS.latency,
    STREAM_WORKLOADS.consumeTwoBrokers,
    STREAM_WORKLOADS.latencyTwoBrokers,
    ...consumeIds(false),
    ...sdkWorkloadIds(),
  ];
  if (anyOf(onMainBroker)) {
    const session = await BrokerSession.open(context, 'stream', await databases.main());
    try {
      const fanOutQueues = Array.from({ length: config.fanOutQueues }, (_, i) => `bench-stream-fanout-${i + 1}`);
      await createTopic(session.admin, 'bench.stream', ['bench-stream']);
      await createTopic(session.admin, 'bench.stream.fanout', fanOutQueues);
      const keys = await createKeys(session.admin);
      session.useKeys(keys);
      log('warming up (HTTP and stream)');
      await session.warmUp();
      await warmUpStreams(context, session, keys);
      const url = session.broker.url;

      if (wants(config, STREAM_WORKLOADS.publish1)) {
        workloads.push(
          await session.measure(STREAM_WORKLOADS.publish1, 'stream publish, 1 per frame, 1 in flight', () =>
            streamPublish(url, keys.publish, 'bench.stream', 1, config.streamPublish1),
          ),
        );
      }
      if (wants(config, STREAM_WORKLOADS.publish)) {
        workloads.push(
          await session.measure(STREAM_WORKLOADS.publish, `stream publish, 1 per frame, ${config.streamWindow} in flight`, () =>
            streamPublish(url, keys.publish, 'bench.stream', config.streamWindow, config.streamPublish),
          ),
        );
      }
      await purge(session.admin, 'bench-stream');
      if (wants(config, STREAM_WORKLOADS.fanOut)) {
        workloads.push(
          await session.measure(STREAM_WORKLOADS.fanOut, `stream fan-out to ${config.fanOutQueues} queues, ${config.streamWindow} in flight`, () =>
            streamPublish(url, keys.publish, 'bench.stream.fanout', config.streamWindow, config.streamFanOut),
          ),
        );
        for (const queue of fanOutQueues) await purge(session.admin, queue);
      }
      workloads.push(...(await consumeWorkloads(context, session, keys, false)));

      if (wants(config, STREAM_WORKLOADS.latency)) {
        latencyResult = await measureLatency(
          context,
          session,
          STREAM_WORKLOADS.latency,
          `stream publish → delivery at ${config.latencyRate.toLocaleString('en-US')}/s`,
          keys,
          url,
          { topic: 'bench.stream.latency', queue: 'bench-stream-latency' },
        );
      }

      // The SDK as users run it, beside the raw client on the same broker.
      const sdk = await runSdkWorkloads(context, session, keys);
      workloads.push(...sdk.workloads);
      sdkLatencies = sdk.latencies;

      if (anyOf([STREAM_WORKLOADS.consumeTwoBrokers, STREAM_WORKLOADS.latencyTwoBrokers])) {
        // What a second broker process on the same database does: the work is split over two
        // processes (each with its own pool, claims and group commits) on the same two cores.
        const second = await BrokerSession.open(context, 'stream-B', session.databaseUrl);
        try {
          second.useKeys(keys);
          await warmUpStreams(context, second, keys, { createTopology: false });
          const both = [url, second.broker.url];
          if (wants(config, STREAM_WORKLOADS.consumeTwoBrokers)) {
            const prefetch = 100;
            const topic = 'bench.stream.consume.two';
            const queue = 'bench-stream-consume-two';
            await createTopic(session.admin, topic, [queue]);
            await seed(session.publisher, topic, config.streamConsume.count);
            const label = `stream consume + ack, prefetch ${prefetch}, ${config.streamConsumers} streams over two brokers (retention 24 h)`;
            workloads.push(
              await session.measure(
                STREAM_WORKLOADS.consumeTwoBrokers,
                label,
                () => streamConsumeAck(both, keys.consume, queue, config.streamConsumers, prefetch, config.streamConsume),
                [second],
              ),
            );
            await purge(session.admin, queue);
          }
          if (wants(config, STREAM_WORKLOADS.latencyTwoBrokers)) {
            latencyTwoBrokers = await measureLatency(
              context,
              session,
              STREAM_WORKLOADS.latencyTwoBrokers,
              `stream publish on A → delivery on B at ${config.latencyRate.toLocaleString('en-US')}/s`,
              keys,
              { publish: url, subscribe: second.broker.url },
              { topic: 'bench.stream.latency.two', queue: 'bench-stream-latency-two' },
              [second],
            );
          }
        } finally {
          await second.close();
        }
      }
    } finally {
      await session.close();
    }
  }

  // Acked retention 0: the ack deletes the row, as RabbitMQ forgets an acked message.
  if (anyOf(consumeIds(true))) {
    const session = await BrokerSession.open(context, 'stream-r0', await databases.retentionZero(), { MINIQUEUE_ACKED_RETENTION_HOURS: '0' });
    try {
      const keys = await createKeys(session.admin);
      session.useKeys(keys);
      await session.warmUp();
      await warmUpStreams(context, session, keys);
      workloads.push(...(await consumeWorkloads(context, session, keys, true)));
    } finally {
      await session.close();
    }
  }

  // Memory, on a fresh broker: what a thousand idle streams and one stopped reader cost.
  if (anyOf([STREAM_WORKLOADS.idle, STREAM_WORKLOADS.stoppedReader])) {
    const session = await BrokerSession.open(context, 'stream-mem', await databases.memory(), {
      // One credential holds all the idle streams (the cap is per credential and instance).
      MINIQUEUE_WS_MAX_SOCKETS_PER_CREDENTIAL: String(config.idleStreams + 100),
    });
    try {
      const keys = await createKeys(session.admin);
      session.useKeys(keys);
      await createTopic(session.admin, 'bench.stream.idle', ['bench-stream-idle']);
      await createTopic(session.admin, 'bench.stream.stalled', ['bench-stream-stalled']);
      await warmUpStreams(context, session, keys);
      const url = session.broker.url;
      if (wants(config, STREAM_WORKLOADS.idle)) {
        log(`measuring: ${config.idleStreams.toLocaleString('en-US')} idle subscribed streams`);
        const result = await idleStreams(url, keys.consume, 'bench-stream-idle', session.broker, {
          count: config.idleStreams,
          parallel: 50,
          settleMs: config.rssSettleMs,
          idleSeconds: config.idleSeconds,
        });
        idle = { streams: config.idleStreams, ...result };
        log(`  RSS ${(result.rssNone / 2 ** 20).toFixed(0)} MiB with none, ${(result.rssOpen / 2 ** 20).toFixed(0)} MiB with ${result.opened}`);
      }
      if (wants(config, STREAM_WORKLOADS.stoppedReader)) {
        log(`seeding ${config.stalledMessages.toLocaleString('en-US')} messages for the stopped reader`);
        await seed(session.publisher, 'bench.stream.stalled', config.stalledMessages);
        log(`measuring: a subscriber that stops reading for ${config.stallSeconds} s`);
        stopped = await stoppedReader(url, keys.consume, session.admin, 'bench-stream-stalled', session.broker.pid, {
          waiting: config.stalledMessages,
          stallSeconds: config.stallSeconds,
          settleMs: config.rssSettleMs,
        });
        log(`  RSS ${(stopped.rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(stopped.rssPeak / 2 ** 20).toFixed(0)} MiB while stopped`);
      }
    } finally {
      await session.close();
    }
  }
  return { workloads, latency: latencyResult, latencyTwoBrokers, idle, stoppedReader: stopped, sdkLatencies };
}

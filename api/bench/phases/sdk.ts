import type { ConsumerOptions } from '@miniqueue/sdk';
import { wants } from '../config.js';
import type { Measurement } from '../measure.js';
import { latency, type SdkLatencyResult } from '../results.js';
import type { BrokerSession, RunContext } from '../session.js';
import { sdkConsume, sdkLatency, sdkPublish } from '../scenarios/sdk.js';
import { streamConsumeAck } from '../scenarios/stream.js';
import { seed } from '../scenarios/throughput.js';
import { createTopic, purge, type Keys } from '../scenarios/topology.js';

/**
 * The SDK as users run it, on the stream phase's main broker, each row beside the raw protocol
 * client with the same streams, window and prefetch (targets.ts reads them as pairs): publish()
 * with 256 in flight beside `stream_publish_256`; one consumer process (`concurrency: 32,
 * prefetch: 100`, a handler that does nothing) beside the raw client on one stream with prefetch
 * 100; publish() → handler at the steady latency rate, with the consumer's defaults and with
 * `concurrency: 32, prefetch: 100`, beside the raw client's `stream_latency`.
 */
export const SDK_WORKLOADS = {
  publish: 'sdk_publish_256',
  rawConsumeOneStream: 'stream_consume_ack_p100_one_stream',
  consume: 'sdk_consume_c32_p100',
  latencyDefaults: 'sdk_latency_defaults',
  latency: 'sdk_latency_c32_p100',
} as const;

const TUNED: ConsumerOptions = { concurrency: 32, prefetch: 100 };

export function sdkWorkloadIds(): string[] {
  return Object.values(SDK_WORKLOADS);
}

export async function runSdkWorkloads(
  context: RunContext,
  session: BrokerSession,
  keys: Keys,
): Promise<{ workloads: Measurement[]; latencies: SdkLatencyResult[] }> {
  const { config } = context;
  const url = session.broker.url;
  const workloads: Measurement[] = [];
  const latencies: SdkLatencyResult[] = [];

  if (wants(config, SDK_WORKLOADS.publish)) {
    await createTopic(session.admin, 'bench.sdk', ['bench-sdk']);
    workloads.push(
      await session.measure(SDK_WORKLOADS.publish, `SDK publish(), defaults, ${config.streamWindow} in flight`, () =>
        sdkPublish(url, keys.publish, 'bench.sdk', config.streamWindow, config.streamPublish),
      ),
    );
    await purge(session.admin, 'bench-sdk');
  }

  const consumeRows: [string, string, (queue: string) => ReturnType<typeof sdkConsume>][] = [
    [
      SDK_WORKLOADS.rawConsumeOneStream,
      'stream consume + ack, prefetch 100, 1 stream (raw client; retention 24 h)',
      (queue) => streamConsumeAck(url, keys.consume, queue, 1, 100, config.streamConsume),
    ],
    [
      SDK_WORKLOADS.consume,
      'SDK consumer, concurrency 32, prefetch 100, 1 process (retention 24 h)',
      (queue) => sdkConsume(url, keys.consume, queue, TUNED, config.streamConsume),
    ],
  ];
  for (const [id, label, run] of consumeRows) {
    if (!wants(config, id)) continue;
    const topic = `bench.${id}`;
    const queue = `bench-${id.replace(/_/g, '-')}`;
    await createTopic(session.admin, topic, [queue]);
    await seed(session.publisher, topic, config.streamConsume.count);
    workloads.push(await session.measure(id, label, () => run(queue)));
    await purge(session.admin, queue);
  }

  const latencyRows: [string, string, ConsumerOptions][] = [
    [SDK_WORKLOADS.latencyDefaults, 'SDK publish() → handler, consumer defaults', {}],
    [SDK_WORKLOADS.latency, 'SDK publish() → handler, concurrency 32, prefetch 100', TUNED],
  ];
  for (const [id, label, options] of latencyRows) {
    if (!wants(config, id)) continue;
    const names = { topic: `bench.${id}`, queue: `bench-${id.replace(/_/g, '-')}` };
    await createTopic(session.admin, names.topic, [names.queue]);
    let samples: number[] = [];
    const timing = { rate: config.latencyRate, seconds: config.latencySeconds, warmupSeconds: config.latencyWarmupSeconds };
    const measurement = await session.measure(id, `${label} at ${config.latencyRate.toLocaleString('en-US')}/s`, async () => {
      const result = await sdkLatency(url, keys, names, options, timing);
      samples = result.samples;
      return result;
    });
    latencies.push({
      id,
      label,
      rate: config.latencyRate,
      latency: latency(samples),
      brokerCores: measurement.brokerCpuSeconds !== null ? measurement.brokerCpuSeconds / measurement.seconds : null,
      walBytesPerMessage: measurement.walBytesPerMessage,
    });
  }
  return { workloads, latencies };
}

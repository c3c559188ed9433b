import { wants } from '../config.js';
import { measure, type Measurement } from '../measure.js';
import { RABBITMQ_SERVER, rabbitInstalled, startRabbit, type RabbitNode } from '../rabbitmq.js';
import { latency, type Latency, type RabbitResults } from '../results.js';
import { RabbitBench } from '../scenarios/rabbitmq.js';
import type { RunContext } from '../session.js';

/**
 * RabbitMQ beside the streams, in the same run and with the same bounds and payload: publisher
 * confirms with 1, 100 and 256 unconfirmed, fan-out to 4 queues, consume + ack with prefetch 10
 * and 100 (as many consumers as the stream workload has streams), and publish → delivery latency
 * at the same steady rate. Only when Debian's rabbitmq-server is installed; the bench starts a
 * node of its own and stops it, and says plainly why when it does not.
 */
export const RABBIT_WORKLOADS = {
  publish1: 'rabbitmq_publish_1',
  publish100: 'rabbitmq_publish_100',
  publish: 'rabbitmq_publish_256',
  fanOut: 'rabbitmq_fan_out_256',
  latency: 'rabbitmq_latency',
} as const;

export const rabbitConsumeId = (prefetch: number) => `rabbitmq_consume_${prefetch}`;

export function rabbitSkipReason(context: RunContext): string | null {
  const { config } = context;
  if (config.rabbitmq === 'off') return 'skipped: BENCH_RABBITMQ=0';
  if (!config.phases.includes('rabbitmq')) return 'skipped: BENCH_PHASES';
  if (config.quick && config.rabbitmq !== 'on') return 'skipped: BENCH_QUICK (BENCH_RABBITMQ=1 measures it in quick mode too)';
  if (!rabbitInstalled()) return `not installed: ${RABBITMQ_SERVER} does not exist (apt-get install -y rabbitmq-server); no RabbitMQ figures in this run`;
  const ids = [...Object.values(RABBIT_WORKLOADS), ...config.streamPrefetches.map(rabbitConsumeId)];
  if (!ids.some((id) => wants(config, id))) return 'skipped: BENCH_ONLY';
  return null;
}

export async function runRabbitPhase(context: RunContext): Promise<RabbitResults> {
  const { config, log } = context;
  const skip = rabbitSkipReason(context);
  if (skip) {
    log(`RabbitMQ: ${skip}`);
    return { status: skip, version: null, workloads: [], latency: null, peakRssBytes: null, cpuSeconds: null };
  }
  let node: RabbitNode | null = null;
  const workloads: Measurement[] = [];
  let latencyResult: Latency | null = null;
  try {
    log('starting RabbitMQ');
    node = await startRabbit(log);
    const rabbit = node;
    const bench = await RabbitBench.open(rabbit.url);
    const run = (id: string, label: string, work: Parameters<typeof measure>[1]) =>
      measure({ id, label, system: 'rabbitmq', brokers: [rabbit], sampleEveryMs: config.sampleEveryMs, log }, work);
    try {
      await bench.queue('bench-publish');
      // Warm-up: a few hundred publishes and acks, as the brokers get.
      await bench.queue('bench-warmup');
      await bench.publish({ queue: 'bench-warmup' }, 100, { count: config.warmup, seconds: 30 });
      await bench.consume('bench-warmup', 2, 100, { count: config.warmup, seconds: 30 });
      await bench.purge('bench-warmup');

      const windows: [string, number, { count: number; seconds: number }][] = [
        [RABBIT_WORKLOADS.publish1, 1, config.streamPublish1],
        [RABBIT_WORKLOADS.publish100, 100, config.streamPublish],
        [RABBIT_WORKLOADS.publish, config.streamWindow, config.streamPublish],
      ];
      for (const [id, window, bound] of windows) {
        if (!wants(config, id)) continue;
        workloads.push(await run(id, `RabbitMQ publish, confirms, ${window} in flight`, () => bench.publish({ queue: 'bench-publish' }, window, bound)));
        await bench.purge('bench-publish');
      }
      if (wants(config, RABBIT_WORKLOADS.fanOut)) {
        const queues = Array.from({ length: config.fanOutQueues }, (_, i) => `bench-fanout-${i + 1}`);
        await bench.fanout('bench.fanout', queues);
        const measured = await run(
          RABBIT_WORKLOADS.fanOut,
          `RabbitMQ fan-out to ${config.fanOutQueues} queues, confirms, ${config.streamWindow} in flight`,
          async () => {
            const result = await bench.publish({ exchange: 'bench.fanout' }, config.streamWindow, config.streamFanOut);
            return { ...result, extra: { copies: result.messages * queues.length } };
          },
        );
        workloads.push(measured);
        for (const queue of queues) await bench.purge(queue);
      }
      for (const prefetch of config.streamPrefetches) {
        const id = rabbitConsumeId(prefetch);
        if (!wants(config, id)) continue;
        const queue = `bench-consume-${prefetch}`;
        await bench.queue(queue);
        await bench.seed(queue, config.streamConsume.count);
        workloads.push(
          await run(id, `RabbitMQ consume + ack, prefetch ${prefetch}, ${config.streamConsumers} consumers`, () =>
            bench.consume(queue, config.streamConsumers, prefetch, config.streamConsume),
          ),
        );
        await bench.purge(queue);
      }
      if (wants(config, RABBIT_WORKLOADS.latency)) {
        await bench.queue('bench-latency');
        log(`measuring: RabbitMQ publish → delivery at ${config.latencyRate.toLocaleString('en-US')}/s`);
        const { samples } = await bench.latency('bench-latency', config.latencyRate, config.latencySeconds, config.latencyWarmupSeconds);
        latencyResult = latency(samples);
      }
    } finally {
      await bench.close();
    }
    return {
      status: 'measured',
      version: rabbit.version,
      workloads,
      latency: latencyResult,
      peakRssBytes: rabbit.peakRss(),
      cpuSeconds: rabbit.cpuSeconds(),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`RabbitMQ failed: ${message}`);
    return {
      status: `failed: ${message.split('\n')[0]}`,
      version: node?.version ?? null,
      workloads,
      latency: latencyResult,
      peakRssBytes: null,
      cpuSeconds: null,
    };
  } finally {
    await node?.stop();
  }
}

import { Flags } from '@oclif/core';
import { onInterrupt } from '../lib/interrupt.js';
import { loadSdk } from '../lib/sdk.js';
import { dim, yellow } from '../lib/style.js';
import type { BenchReport } from '../lib/bench/report.js';
import { BrokerCommand } from '../base/brokerCommand.js';
import { transportFlag } from '../lib/transportFlag.js';

export default class Bench extends BrokerCommand<typeof Bench> {
  static summary = 'Load-test a broker: producers and consumers on a topic of its own, then msg/s and publish-to-ack latency.';

  static description = `In the manner of RabbitMQ's PerfTest. It creates a topic named bench-<random> with --queues queues bound to it (fan-out) and one client to publish and one to consume, runs --producers publish loops and --consumers claim-and-ack loops for --duration seconds, prints a progress line every second on stderr (sent/s, acked/s, backlog, errors), then the rates, the publish-to-ack latency percentiles and the errors. Everything it created is deleted at the end, also on Ctrl-C.

What the defaults measure: one producer and one consumer in this one process, one message per request, each waiting for the last one's answer: a round trip's rate (a few hundred msg/s), not what the broker can take. For that, add load: more loops (--producers 16 --consumers 8), batches (--publish-batch 100), several bench processes at once, or \`npm run bench\` in a clone of the repository. The command says this again after a run with such a small load.

First, for --warmup seconds (default 3), the same load runs uncounted and the queues are emptied after it: a fresh process, and a broker meeting new keys and queues, run their first thousands of requests at a fraction of their speed. Each producer and each HTTP consumer has one request in flight over a keep-alive connection. --publish-batch 1 publishes one message per request, over the client's stream unless --transport http (one publish frame in flight per producer); more uses the batch route. Publishes carry no idempotency key: each request is sent once, so there is nothing for one to protect (as \`npm run bench\` publishes). Consumers go over the client's stream too: each is the SDK's consumer of one queue, handling one message at a time with --prefetch (default 10) more pushed ahead, each acked by frame. With --transport http, --receive-batch 1 claims with consume and acks each message; more uses receive and one batch ack. Consumers take the queues in turn. With --producers 0 and --prefill N, consumers drain N messages and stop when their queue is empty.

A broker that rate-limits (MINIQUEUE_RATE_LIMIT_ENABLED) caps each key at its rate: the bench uses one key to publish and one to consume, so 429 errors mean that limit, not the broker's capacity. Needs an admin key.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --url http://localhost:8080',
    '<%= config.bin %> <%= command.id %> --producers 32 --consumers 0 --duration 12',
    '<%= config.bin %> <%= command.id %> --producers 0 --consumers 32 --prefill 30000',
    '<%= config.bin %> <%= command.id %> -x 4 -y 8 --queues 4 --size 1024 --publish-batch 100 --receive-batch 100 --json',
  ];

  static flags = {
    producers: Flags.integer({ char: 'x', summary: 'Publish loops, each with one request in flight.', min: 0, max: 1000, default: 1 }),
    consumers: Flags.integer({ char: 'y', summary: 'Claim-and-ack loops, each with one request in flight.', min: 0, max: 1000, default: 1 }),
    size: Flags.integer({ char: 's', summary: 'Payload size in bytes (it carries the send time).', min: 32, max: 262_144, default: 200 }),
    'publish-batch': Flags.integer({ summary: 'Messages per publish request (1-500).', min: 1, max: 500, default: 1 }),
    'receive-batch': Flags.integer({ summary: 'With --transport http: messages per claim (1-100).', min: 1, max: 100, default: 1 }),
    prefetch: Flags.integer({
      summary: 'Over the stream: unacked messages the broker pushes ahead to each consumer (1-1000).',
      min: 1,
      max: 1000,
      default: 10,
    }),
    queues: Flags.integer({
      char: 'q',
      summary: 'Queues bound to the bench topic (fan-out): each message is stored once per queue.',
      min: 1,
      max: 100,
      default: 1,
    }),
    duration: Flags.integer({ char: 'z', summary: 'Seconds to run.', min: 1, max: 86_400, default: 10 }),
    warmup: Flags.integer({
      summary: 'Seconds of the same load before the clock starts, not counted; the queues are emptied after it.',
      min: 0,
      max: 600,
      default: 3,
    }),
    transport: transportFlag,
    prefill: Flags.integer({ summary: 'Messages published before the clock starts, for consumers to drain.', min: 0, max: 10_000_000, default: 0 }),
  };

  async run(): Promise<BenchReport> {
    const { flags } = this;
    if (flags.producers === 0 && flags.consumers === 0) this.error('Give at least one producer or consumer.', { exit: 2 });
    if (flags.consumers > 0 && flags.consumers < flags.queues) {
      process.stderr.write(
        `${yellow('Warning:')} ${flags.queues - flags.consumers} of the ${flags.queues} queues have no consumer; their backlog only grows.\n`,
      );
    }
    const connection = await this.connection();
    await this.broker(); // fails here, before anything is created, when there is no key
    // Loaded when it runs, not when oclif loads this module (to list or explain commands).
    const [{ runBench }, { renderReport, smallLoadHint }] = await Promise.all([import('../lib/bench/run.js'), import('../lib/bench/report.js')]);
    const interrupt = onInterrupt();
    try {
      const report = await runBench({
        sdk: await loadSdk(),
        url: connection.url,
        adminKey: connection.apiKey!,
        settings: {
          producers: flags.producers,
          consumers: flags.consumers,
          size: flags.size,
          publish_batch: flags['publish-batch'],
          receive_batch: flags['receive-batch'],
          prefetch: flags.prefetch,
          queues: flags.queues,
          duration_seconds: flags.duration,
          prefill: flags.prefill,
          warmup_seconds: flags.warmup,
        },
        transport: flags.transport === 'http' ? 'http' : 'stream',
        interrupt: interrupt.signal,
        progress: (line) => process.stderr.write(`${line}\n`),
        announce: (line) => process.stderr.write(`${line}\n`),
        warn: (line) => process.stderr.write(`${yellow(line)}\n`),
      });
      this.log(renderReport(report));
      const hint = smallLoadHint(report.settings);
      if (hint) process.stderr.write(`${dim(hint)}\n`);
      return report;
    } finally {
      interrupt.dispose();
    }
  }
}

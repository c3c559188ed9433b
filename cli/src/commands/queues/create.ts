import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import type { Fairness, Queue } from '@miniqueue/sdk';
import { BrokerCommand } from '../../base/brokerCommand.js';
import { queueFeatures } from '../../lib/queueFeatures.js';
import { FILTER_FORMS, filterFlag, parseFilter } from '../../lib/filterFlag.js';
import { BOUND_FORMS, boundFlags, overflowOf, parseBound, sharedTopicWarning } from '../../lib/boundFlags.js';
import { EXPIRY_FORMS, expiryFlags, onExpiryOf, parseDeadLetterTopic, parseTtl } from '../../lib/expiryFlags.js';

/** How a queue shares its deliveries out (the contract's Fairness). */
const FAIRNESS = ['none', 'by_key'] as const satisfies readonly Fairness[];

export default class QueuesCreate extends BrokerCommand<typeof QueuesCreate> {
  static summary = 'Create a queue bound to a topic.';

  static description = `The queue receives a copy of every message published to the topic from now on. A consumer that claims a message holds it for --ack-timeout seconds; unacknowledged, it is redelivered, up to --max-retries times, then it goes to the dead-letter queue. With --filter, the queue takes only the messages whose headers match. ${FILTER_FORMS} With --require-ordering-key, publishes without an ordering key that this queue would take are refused. With --single-active-consumer, one consumer at a time is given messages (the next takes over when it stops polling, closes its stream or lets its leases run out); --max-deliveries-per-second paces deliveries across every broker instance (claims beyond it wait). With --max-priority, claims take the highest priority first (publish --priority), oldest first within one; messages of one ordering key keep their order; it cannot be changed later. With --fairness by_key, claims go round the group keys that have a message waiting (publish --group-key, else the ordering key), in turn, oldest first within each, so one key's backlog does not hold back the others; --max-in-flight-per-key caps each key's unacked messages (queues:update changes it). Fairness cannot be changed later, nor combined with --max-priority. ${BOUND_FORMS} ${EXPIRY_FORMS}`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --topic order.placed',
    '<%= config.bin %> <%= command.id %> stock-queue --topic order.placed --ack-timeout 120 --max-retries 10',
    `<%= config.bin %> <%= command.id %> eu-orders --topic order.placed --filter '{"header":"region","equals":"eu"}'`,
    '<%= config.bin %> <%= command.id %> ledger --topic order.placed --require-ordering-key',
    '<%= config.bin %> <%= command.id %> sms-queue --topic order.placed --max-deliveries-per-second 200 --single-active-consumer',
    '<%= config.bin %> <%= command.id %> urgent-first --topic order.placed --max-priority 9',
    '<%= config.bin %> <%= command.id %> reports --topic report.requested --fairness by_key --max-in-flight-per-key 2',
    '<%= config.bin %> <%= command.id %> recent --topic order.placed --max-messages 10000 --overflow drop_oldest',
    '<%= config.bin %> <%= command.id %> audit --topic order.placed --max-messages 100000 --overflow reject_copy',
    '<%= config.bin %> <%= command.id %> quotes --topic quote.requested --message-ttl 60 --dead-letter-topic quote.expired',
  ];

  static args = {
    name: arg('Queue name: letters, digits, dot, dash, underscore (lowercased).'),
  };

  static flags = {
    topic: Flags.string({ char: 't', summary: 'The topic to bind the queue to (it must exist).', required: true }),
    'ack-timeout': Flags.integer({ summary: 'Lease of a claimed message, in seconds (1-43200). Broker default: 30.', min: 1, max: 43200 }),
    'max-retries': Flags.integer({ summary: 'Redeliveries before a message goes dead (0-100). Broker default: 5.', min: 0, max: 100 }),
    filter: filterFlag('Take only messages whose headers match this JSON filter. Default: every message.'),
    'require-ordering-key': Flags.boolean({ summary: 'Refuse publishes without an ordering key that this queue would take.' }),
    'single-active-consumer': Flags.boolean({ summary: 'Give messages to one consumer at a time; the next takes over when it stops.' }),
    'max-deliveries-per-second': Flags.integer({ summary: 'Deliveries per second across every instance (1-100000). Default: no limit.', min: 1, max: 100000 }),
    'max-priority': Flags.integer({
      summary: "Deliver the highest publish priority first (1-9: the highest honoured); fixed for the queue's life. Default: oldest first.",
      min: 1,
      max: 9,
    }),
    fairness: Flags.string({
      summary: "by_key: share deliveries out between group keys, in turn; fixed for the queue's life. Default: none (oldest first).",
      options: [...FAIRNESS],
    }),
    'max-in-flight-per-key': Flags.integer({
      summary: 'With --fairness by_key: at most this many unacked messages per group key (1-10000). Default: no limit.',
      min: 1,
      max: 10000,
    }),
    ...boundFlags(false),
    ...expiryFlags(false),
  };

  async run(): Promise<Queue> {
    const queue = await (
      await this.broker()
    ).queues.create(this.args.name, this.flags.topic, {
      ackTimeoutSeconds: this.flags['ack-timeout'],
      maxRetries: this.flags['max-retries'],
      filter: parseFilter(this.flags.filter) ?? undefined,
      requireOrderingKey: this.flags['require-ordering-key'] || undefined,
      singleActiveConsumer: this.flags['single-active-consumer'] || undefined,
      maxDeliveriesPerSecond: this.flags['max-deliveries-per-second'],
      maxMessages: parseBound('max-messages', this.flags['max-messages'], false) ?? undefined,
      maxBytes: parseBound('max-bytes', this.flags['max-bytes'], false) ?? undefined,
      overflow: overflowOf(this.flags.overflow),
      messageTtlSeconds: parseTtl(this.flags['message-ttl'], false) ?? undefined,
      onExpiry: onExpiryOf(this.flags['on-expiry']),
      deadLetterTopic: parseDeadLetterTopic(this.flags['dead-letter-topic'], false) ?? undefined,
      deadLetterKeep: this.flags['dead-letter-keep'] || undefined,
      maxPriority: this.flags['max-priority'],
      fairness: this.flags.fairness as Fairness | undefined,
      maxInFlightPerKey: this.flags['max-in-flight-per-key'],
    });
    const features = queueFeatures(queue);
    const policies = features.length > 0 ? `; features ${features.join(' ')}` : '';
    this.log(
      `Created queue ${queue.name} on topic ${queue.topic_name} (ack timeout ${queue.ack_timeout_seconds}s, max retries ${queue.max_retries}${policies}).`,
    );
    const warning = sharedTopicWarning(queue);
    if (warning) this.log(`Note: ${warning}`);
    return queue;
  }
}

import { Flags } from '@oclif/core';
import type { Queue, QueueChanges } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { EXIT, Failure } from '../../lib/failure.js';
import { renderQueue } from '../../lib/queueView.js';
import { BrokerCommand } from '../../base/brokerCommand.js';
import { FILTER_FORMS, filterFlag, parseFilter } from '../../lib/filterFlag.js';
import { boundFlags, overflowOf, parseBound } from '../../lib/boundFlags.js';
import { expiryFlags, onExpiryOf, parseDeadLetterTopic, parseTtl } from '../../lib/expiryFlags.js';
import { attentionFlags, attentionGiven, attentionWith } from '../../lib/attentionFlags.js';

export default class QueuesUpdate extends BrokerCommand<typeof QueuesUpdate> {
  static summary = "Change a queue's settings; those not given keep their value.";

  static description = `A new ack timeout applies to leases taken from now on; new max retries to the next nack or lease expiry; a new acked retention at once (--acked-retention default follows the broker's MINIQUEUE_ACKED_RETENTION_HOURS again); a new --filter at once for the next publish (--filter none takes every message again); --single-active-consumer, --max-deliveries-per-second and --max-in-flight-per-key (queues with fairness by_key) from the next claim ("none" lifts either limit). ${FILTER_FORMS} New bounds (--max-messages, --max-bytes, --overflow; "none" removes a bound) apply to what is published after: a queue already over a lowered bound keeps its messages. A new --message-ttl (or "none") applies to messages published after; --on-expiry, --dead-letter-topic ("none" keeps dead letters in the DLQ only) and --dead-letter-keep to the next expiry or death. --attention-muted and the --attention-* thresholds change when the dashboard flags the queue as needing attention ("default": the flag's own number), at once; the alert rules keep their numbers.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --ack-timeout 120',
    '<%= config.bin %> <%= command.id %> email-queue --max-retries 10 --acked-retention 72',
    '<%= config.bin %> <%= command.id %> email-queue --acked-retention default',
    `<%= config.bin %> <%= command.id %> eu-orders --filter '{"or":[{"header":"region","equals":"eu"},{"header":"region","prefix":"eu-"}]}'`,
    '<%= config.bin %> <%= command.id %> ledger --require-ordering-key',
    '<%= config.bin %> <%= command.id %> sms-queue --max-deliveries-per-second 50 --no-single-active-consumer',
    '<%= config.bin %> <%= command.id %> reports --max-in-flight-per-key 5',
    '<%= config.bin %> <%= command.id %> email-queue --max-messages 50000 --overflow dead_letter_oldest',
    '<%= config.bin %> <%= command.id %> email-queue --max-messages none',
    '<%= config.bin %> <%= command.id %> quotes --message-ttl 120 --on-expiry drop',
    '<%= config.bin %> <%= command.id %> email-queue --dead-letter-topic email.dead --dead-letter-keep',
    '<%= config.bin %> <%= command.id %> nightly-batch --attention-oldest-pending 7200 --attention-backlog-growth 10000',
    '<%= config.bin %> <%= command.id %> scratch --attention-muted',
  ];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    'ack-timeout': Flags.integer({ summary: 'Lease of a claimed message, in seconds (1-43200).', min: 1, max: 43200 }),
    'max-retries': Flags.integer({ summary: 'Redeliveries before a message goes dead (0-100).', min: 0, max: 100 }),
    'acked-retention': Flags.string({
      summary: 'Hours acked messages are kept (0-8760; 0 keeps none), or "default" for the broker\'s setting.',
    }),
    filter: filterFlag('A new JSON header filter, or "none" to take every message again.'),
    'require-ordering-key': Flags.boolean({
      summary: 'Refuse publishes without an ordering key (--no-require-ordering-key allows them again).',
      allowNo: true,
    }),
    'single-active-consumer': Flags.boolean({
      summary: 'Give messages to one consumer at a time (--no-single-active-consumer to every consumer again).',
      allowNo: true,
    }),
    'max-deliveries-per-second': Flags.string({ summary: 'Deliveries per second across every instance (1-100000), or "none" to lift the limit.' }),
    'max-in-flight-per-key': Flags.string({
      summary: 'With fairness by_key: unacked messages per group key at most (1-10000), or "none" to lift the limit.',
    }),
    ...boundFlags(true),
    ...expiryFlags(true),
    ...attentionFlags(),
  };

  async run(): Promise<Queue> {
    const changes = this.changes();
    const mq = await this.broker();
    // The attention settings are set as a whole: those not given keep the queue's.
    if (attentionGiven(this.flags)) changes.attention = attentionWith(this.flags, await mq.queues.get(this.args.name));
    const queue = await mq.queues.update(this.args.name, changes);
    this.log(`Updated queue ${queue.name}:\n${renderQueue(queue)}`);
    return queue;
  }

  private changes(): QueueChanges {
    const { 'ack-timeout': ackTimeoutSeconds, 'max-retries': maxRetries, 'acked-retention': retention } = this.flags;
    const { filter, 'require-ordering-key': requireOrderingKey, 'max-messages': maxMessages, 'max-bytes': maxBytes, overflow } = this.flags;
    const { 'single-active-consumer': singleActiveConsumer, 'max-deliveries-per-second': rate, 'max-in-flight-per-key': perKey } = this.flags;
    const { 'message-ttl': ttl, 'on-expiry': onExpiry, 'dead-letter-topic': deadLetterTopic, 'dead-letter-keep': deadLetterKeep } = this.flags;
    const given = [ackTimeoutSeconds, maxRetries, retention, filter, requireOrderingKey, singleActiveConsumer, rate, maxMessages, maxBytes, overflow];
    given.push(ttl, onExpiry, deadLetterTopic, deadLetterKeep, perKey);
    if (given.every((flag) => flag === undefined) && !attentionGiven(this.flags)) {
      throw new Failure(
        'Nothing to change',
        'Give at least one setting to change (--ack-timeout, --max-retries, --filter, --attention-muted, …); `miniqueue queues:update --help` lists them all.',
        EXIT.usage,
      );
    }
    return {
      ackTimeoutSeconds,
      maxRetries,
      ackedRetentionHours: retention === undefined ? undefined : retentionHours(retention),
      filter: parseFilter(filter, true),
      requireOrderingKey,
      singleActiveConsumer,
      maxDeliveriesPerSecond: rate === undefined ? undefined : limitOrNone('max-deliveries-per-second', rate, 100000),
      maxInFlightPerKey: perKey === undefined ? undefined : limitOrNone('max-in-flight-per-key', perKey, 10000),
      maxMessages: parseBound('max-messages', maxMessages, true),
      maxBytes: parseBound('max-bytes', maxBytes, true),
      overflow: overflowOf(overflow),
      messageTtlSeconds: parseTtl(ttl, true),
      onExpiry: onExpiryOf(onExpiry),
      deadLetterTopic: parseDeadLetterTopic(deadLetterTopic, true),
      deadLetterKeep,
    };
  }
}

/** A limit from 1 to `max`; "none" is null on the wire: the limit is lifted. */
function limitOrNone(flag: string, raw: string, max: number): number | null {
  if (raw === 'none') return null;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > max) {
    throw new Failure(`--${flag} must be 1-${max} or "none", got ${raw}`, 'See `miniqueue queues:update --help`.', EXIT.usage);
  }
  return limit;
}

/** "default" is null on the wire: the queue follows the broker's setting again. */
function retentionHours(raw: string): number | null {
  if (raw === 'default') return null;
  const hours = Number(raw);
  if (!/^\d+$/.test(raw) || hours > 8760) {
    throw new Failure(`--acked-retention must be 0-8760 hours or "default", got ${raw}`, 'See `miniqueue queues:update --help`.', EXIT.usage);
  }
  return hours;
}

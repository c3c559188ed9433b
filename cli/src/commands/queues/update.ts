import { Flags } from '@oclif/core';
import type { Queue, QueueChanges } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { EXIT, Failure } from '../../lib/failure.js';
import { renderQueue } from '../../lib/queueView.js';
import { BrokerCommand } from '../../base/brokerCommand.js';
import { FILTER_FORMS, filterFlag, parseFilter } from '../../lib/filterFlag.js';

export default class QueuesUpdate extends BrokerCommand<typeof QueuesUpdate> {
  static summary = "Change a queue's settings; those not given keep their value.";

  static description = `A new ack timeout applies to leases taken from now on; new max retries to the next nack or lease expiry; a new acked retention at once (--acked-retention default follows the broker's MINIQUEUE_ACKED_RETENTION_HOURS again); a new --filter at once for the next publish (--filter none takes every message again). ${FILTER_FORMS}`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --ack-timeout 120',
    '<%= config.bin %> <%= command.id %> email-queue --max-retries 10 --acked-retention 72',
    '<%= config.bin %> <%= command.id %> email-queue --acked-retention default',
    `<%= config.bin %> <%= command.id %> eu-orders --filter '{"or":[{"header":"region","equals":"eu"},{"header":"region","prefix":"eu-"}]}'`,
    '<%= config.bin %> <%= command.id %> ledger --require-ordering-key',
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
  };

  async run(): Promise<Queue> {
    const changes = this.changes();
    const queue = await (await this.broker()).queues.update(this.args.name, changes);
    this.log(`Updated queue ${queue.name}:\n${renderQueue(queue)}`);
    return queue;
  }

  private changes(): QueueChanges {
    const { 'ack-timeout': ackTimeoutSeconds, 'max-retries': maxRetries, 'acked-retention': retention } = this.flags;
    const { filter, 'require-ordering-key': requireOrderingKey } = this.flags;
    if ([ackTimeoutSeconds, maxRetries, retention, filter, requireOrderingKey].every((flag) => flag === undefined)) {
      throw new Failure(
        'Nothing to change',
        'Give --ack-timeout, --max-retries, --acked-retention, --filter or --require-ordering-key; see `miniqueue queues:update --help`.',
        EXIT.usage,
      );
    }
    return {
      ackTimeoutSeconds,
      maxRetries,
      ackedRetentionHours: retention === undefined ? undefined : retentionHours(retention),
      filter: parseFilter(filter, true),
      requireOrderingKey,
    };
  }
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

import { Flags } from '@oclif/core';
import type { Queue, QueueChanges } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { EXIT, Failure } from '../../lib/failure.js';
import { renderQueue } from '../../lib/queueView.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesUpdate extends BrokerCommand<typeof QueuesUpdate> {
  static summary = "Change a queue's settings; those not given keep their value.";

  static description = `A new ack timeout applies to leases taken from now on; new max retries to the next nack or lease expiry; a new acked retention at once (--acked-retention default follows the broker's MINIQUEUE_ACKED_RETENTION_HOURS again).`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --ack-timeout 120',
    '<%= config.bin %> <%= command.id %> email-queue --max-retries 10 --acked-retention 72',
    '<%= config.bin %> <%= command.id %> email-queue --acked-retention default',
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
  };

  async run(): Promise<Queue> {
    const changes = this.changes();
    const queue = await (await this.broker()).queues.update(this.args.name, changes);
    this.log(`Updated queue ${queue.name}:\n${renderQueue(queue)}`);
    return queue;
  }

  private changes(): QueueChanges {
    const { 'ack-timeout': ackTimeoutSeconds, 'max-retries': maxRetries, 'acked-retention': retention } = this.flags;
    if (ackTimeoutSeconds === undefined && maxRetries === undefined && retention === undefined) {
      throw new Failure('Nothing to change', 'Give --ack-timeout, --max-retries or --acked-retention; see `miniqueue queues:update --help`.', EXIT.usage);
    }
    return { ackTimeoutSeconds, maxRetries, ackedRetentionHours: retention === undefined ? undefined : retentionHours(retention) };
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

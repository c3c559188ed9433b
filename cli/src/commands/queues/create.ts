import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import type { Queue } from '@miniqueue/sdk';
import { BrokerCommand } from '../../base/brokerCommand.js';
import { FILTER_FORMS, filterFlag, parseFilter } from '../../lib/filterFlag.js';

export default class QueuesCreate extends BrokerCommand<typeof QueuesCreate> {
  static summary = 'Create a queue bound to a topic.';

  static description = `The queue receives a copy of every message published to the topic from now on. A consumer that claims a message holds it for --ack-timeout seconds; unacknowledged, it is redelivered, up to --max-retries times, then it goes to the dead-letter queue. With --filter, the queue takes only the messages whose headers match. ${FILTER_FORMS} With --require-ordering-key, publishes without an ordering key that this queue would take are refused.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --topic order.placed',
    '<%= config.bin %> <%= command.id %> stock-queue --topic order.placed --ack-timeout 120 --max-retries 10',
    `<%= config.bin %> <%= command.id %> eu-orders --topic order.placed --filter '{"header":"region","equals":"eu"}'`,
    '<%= config.bin %> <%= command.id %> ledger --topic order.placed --require-ordering-key',
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
  };

  async run(): Promise<Queue> {
    const queue = await (await this.broker()).queues.create(this.args.name, this.flags.topic, {
      ackTimeoutSeconds: this.flags['ack-timeout'],
      maxRetries: this.flags['max-retries'],
      filter: parseFilter(this.flags.filter) ?? undefined,
      requireOrderingKey: this.flags['require-ordering-key'] || undefined,
    });
    this.log(
      `Created queue ${queue.name} on topic ${queue.topic_name} (ack timeout ${queue.ack_timeout_seconds}s, max retries ${queue.max_retries}).`,
    );
    return queue;
  }
}

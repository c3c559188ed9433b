import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import type { Queue } from '@miniqueue/sdk';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesCreate extends BrokerCommand<typeof QueuesCreate> {
  static summary = 'Create a queue bound to a topic.';

  static description = `The queue receives a copy of every message published to the topic from now on. A consumer that claims a message holds it for --ack-timeout seconds; unacknowledged, it is redelivered, up to --max-retries times, then it goes to the dead-letter queue.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --topic order.placed',
    '<%= config.bin %> <%= command.id %> stock-queue --topic order.placed --ack-timeout 120 --max-retries 10',
  ];

  static args = {
    name: arg('Queue name: letters, digits, dot, dash, underscore (lowercased).'),
  };

  static flags = {
    topic: Flags.string({ char: 't', summary: 'The topic to bind the queue to (it must exist).', required: true }),
    'ack-timeout': Flags.integer({ summary: 'Lease of a claimed message, in seconds (1-43200). Broker default: 30.', min: 1, max: 43200 }),
    'max-retries': Flags.integer({ summary: 'Redeliveries before a message goes dead (0-100). Broker default: 5.', min: 0, max: 100 }),
  };

  async run(): Promise<Queue> {
    const queue = await (await this.broker()).queues.create(this.args.name, this.flags.topic, {
      ackTimeoutSeconds: this.flags['ack-timeout'],
      maxRetries: this.flags['max-retries'],
    });
    this.log(
      `Created queue ${queue.name} on topic ${queue.topic_name} (ack timeout ${queue.ack_timeout_seconds}s, max retries ${queue.max_retries}).`,
    );
    return queue;
  }
}

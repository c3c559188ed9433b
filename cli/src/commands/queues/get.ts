import type { Queue } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { renderQueue } from '../../lib/queueView.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesGet extends BrokerCommand<typeof QueuesGet> {
  static summary = "Show one queue's settings: topic, ack timeout, max retries, acked retention.";

  static description = 'Message counts per queue are in `miniqueue status`; change the settings with `miniqueue queues:update`.';

  static examples = ['<%= config.bin %> <%= command.id %> email-queue', '<%= config.bin %> <%= command.id %> email-queue --json'];

  static args = {
    name: arg('Queue name.'),
  };

  async run(): Promise<Queue> {
    const queue = await (await this.broker()).queues.get(this.args.name);
    this.log(renderQueue(queue));
    return queue;
  }
}

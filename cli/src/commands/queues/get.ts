import { MiniQueueError, type PushEndpoint, type Queue } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { renderQueue } from '../../lib/queueView.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesGet extends BrokerCommand<typeof QueuesGet> {
  static summary = "Show one queue's settings: topic, ack timeout, max retries, acked retention.";

  static description =
    'With a push endpoint, also how its deliveries go: failing in a row, the last error and the last success (`miniqueue queues:push:get` for the rest). ' +
    'Message counts per queue are in `miniqueue status`; change the settings with `miniqueue queues:update`.';

  static examples = ['<%= config.bin %> <%= command.id %> email-queue', '<%= config.bin %> <%= command.id %> email-queue --json'];

  static args = {
    name: arg('Queue name.'),
  };

  async run(): Promise<Queue> {
    const mq = await this.broker();
    const [queue, push] = await Promise.all([mq.queues.get(this.args.name), mq.push.get(this.args.name).catch(noPushEndpoint)]);
    this.log(renderQueue(queue, push));
    return queue;
  }
}

/** No endpoint (404), or one this key may not see (403): the settings are shown without it. */
function noPushEndpoint(error: unknown): PushEndpoint | null | undefined {
  if (error instanceof MiniQueueError && error.status === 404) return null;
  if (error instanceof MiniQueueError && error.status === 403) return undefined;
  throw error;
}

import { arg } from '../../lib/args.js';
import type { TopicCreated } from '@miniqueue/sdk';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class TopicsCreate extends BrokerCommand<typeof TopicsCreate> {
  static summary = 'Create a topic.';

  static description = 'Producers publish to a topic; every queue bound to it (queues:create --topic) gets its own copy of each message.';

  static examples = ['<%= config.bin %> <%= command.id %> order.placed'];

  static args = {
    name: arg('Topic name: letters, digits, dot, dash, underscore (lowercased).'),
  };

  async run(): Promise<TopicCreated> {
    const topic = await (await this.broker()).topics.create(this.args.name);
    this.log(`Created topic ${topic.name}.`);
    return topic;
  }
}

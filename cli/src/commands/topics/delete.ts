import { arg } from '../../lib/args.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export interface DeleteResult {
  name: string;
  deleted: boolean;
}

export default class TopicsDelete extends BrokerCommand<typeof TopicsDelete> {
  static summary = 'Delete a topic that has no queues.';

  static description = 'Refused (exit code 5) while queues are bound to the topic: delete them first with queues:delete.';

  static examples = ['<%= config.bin %> <%= command.id %> order.placed'];

  static args = {
    name: arg('Topic name.'),
  };

  async run(): Promise<DeleteResult> {
    await (await this.broker()).topics.delete(this.args.name);
    this.log(`Deleted topic ${this.args.name}.`);
    return { name: this.args.name, deleted: true };
  }
}

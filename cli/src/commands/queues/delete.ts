import { arg } from '../../lib/args.js';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export interface DeleteResult {
  name: string;
  deleted: boolean;
}

export default class QueuesDelete extends BrokerCommand<typeof QueuesDelete> {
  static summary = 'Delete a queue and every message in it.';

  static description = `Messages in any status go with it. ${ASKS_FIRST}`;

  static examples = ['<%= config.bin %> <%= command.id %> email-queue', '<%= config.bin %> <%= command.id %> email-queue --yes'];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    yes: yesFlag,
  };

  async run(): Promise<DeleteResult> {
    const { name } = this.args;
    const broker = await this.broker();
    return confirmThenAct<DeleteResult>(this, this.flags.yes, {
      question: `Delete queue ${name} and all its messages?`,
      declined: 'Nothing deleted.',
      untouched: { name, deleted: false },
      act: async () => {
        await broker.queues.delete(name);
        this.log(`Deleted queue ${name}.`);
        return { name, deleted: true };
      },
    });
  }
}

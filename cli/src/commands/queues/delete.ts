import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import { confirm } from '../../lib/prompt.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export interface DeleteResult {
  name: string;
  deleted: boolean;
}

export default class QueuesDelete extends BrokerCommand<typeof QueuesDelete> {
  static summary = 'Delete a queue and every message in it.';

  static description = 'Messages in any status go with it. Asks for confirmation unless --yes is given (required when not in a terminal).';

  static examples = ['<%= config.bin %> <%= command.id %> email-queue', '<%= config.bin %> <%= command.id %> email-queue --yes'];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    yes: Flags.boolean({ char: 'y', summary: 'Do not ask for confirmation.' }),
  };

  async run(): Promise<DeleteResult> {
    const { name } = this.args;
    const broker = await this.broker();
    if (!this.flags.yes && !(await confirm(`Delete queue ${name} and all its messages?`))) {
      this.log('Nothing deleted.');
      return { name, deleted: false };
    }
    await broker.queues.delete(name);
    this.log(`Deleted queue ${name}.`);
    return { name, deleted: true };
  }
}

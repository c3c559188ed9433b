import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import type { PurgeResult } from '@miniqueue/sdk';
import { plural } from '../../lib/format.js';
import { confirm } from '../../lib/prompt.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesPurge extends BrokerCommand<typeof QueuesPurge> {
  static summary = 'Delete every message of a queue, in every status; the queue stays.';

  static description = 'Pending, in-flight, acknowledged and dead messages all go. Asks for confirmation unless --yes is given (required when not in a terminal).';

  static examples = ['<%= config.bin %> <%= command.id %> email-queue --yes'];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    yes: Flags.boolean({ char: 'y', summary: 'Do not ask for confirmation.' }),
  };

  async run(): Promise<PurgeResult> {
    const { name } = this.args;
    const broker = await this.broker();
    if (!this.flags.yes && !(await confirm(`Delete every message of queue ${name}?`))) {
      this.log('Nothing purged.');
      return { queue: name, purged: 0 };
    }
    const result = await broker.queues.purge(name);
    this.log(`Purged ${plural(result.purged, 'message')} from ${result.queue}.`);
    return result;
  }
}

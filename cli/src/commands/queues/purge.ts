import { arg } from '../../lib/args.js';
import type { PurgeResult } from '@miniqueue/sdk';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { plural } from '../../lib/format.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesPurge extends BrokerCommand<typeof QueuesPurge> {
  static summary = 'Delete every message of a queue, in every status; the queue stays.';

  static description = `Pending, in-flight, acknowledged and dead messages all go. ${ASKS_FIRST}`;

  static examples = ['<%= config.bin %> <%= command.id %> email-queue --yes'];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    yes: yesFlag,
  };

  async run(): Promise<PurgeResult> {
    const { name } = this.args;
    const broker = await this.broker();
    return confirmThenAct(this, this.flags.yes, {
      question: `Delete every message of queue ${name}?`,
      declined: 'Nothing purged.',
      untouched: { queue: name, purged: 0 },
      act: async () => {
        const result = await broker.queues.purge(name);
        this.log(`Purged ${plural(result.purged, 'message')} from ${result.queue}.`);
        return result;
      },
    });
  }
}

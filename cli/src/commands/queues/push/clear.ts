import { arg } from '../../../lib/args.js';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../../lib/confirmThenAct.js';
import { BrokerCommand } from '../../../base/brokerCommand.js';

export default class QueuesPushClear extends BrokerCommand<typeof QueuesPushClear> {
  static summary = "Remove a queue's push endpoint; its messages stay, for pull consumers.";

  static description = `Deliveries in flight finish; no new one starts. ${ASKS_FIRST}`;

  static examples = ['<%= config.bin %> <%= command.id %> email-queue --yes'];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    yes: yesFlag,
  };

  async run(): Promise<{ queue: string; cleared: boolean }> {
    const untouched: { queue: string; cleared: boolean } = { queue: this.args.name, cleared: false };
    const { name } = this.args;
    const broker = await this.broker();
    return confirmThenAct(this, this.flags.yes, {
      question: `Stop pushing the messages of ${name}?`,
      declined: 'Nothing changed.',
      untouched,
      act: async () => {
        await broker.push.clear(name);
        this.log(`Removed the push endpoint of ${name}.`);
        return { queue: name, cleared: true };
      },
    });
  }
}

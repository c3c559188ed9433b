import { arg } from '../../lib/args.js';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export interface DlqDeleteResult {
  message_id: string;
  deleted: boolean;
}

export default class DlqDelete extends BrokerCommand<typeof DlqDelete> {
  static summary = 'Delete one dead message for good.';

  static description = `${ASKS_FIRST} The message is never delivered again; to have it consumed after all, replay it instead (dlq:replay). A message that is not dead (replayed meanwhile, say) is left alone.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --yes --json',
  ];

  static args = {
    id: arg('Id of the dead message to delete.'),
  };

  static flags = {
    yes: yesFlag,
  };

  async run(): Promise<DlqDeleteResult> {
    const { id } = this.args;
    const broker = await this.broker();
    return confirmThenAct<DlqDeleteResult>(this, this.flags.yes, {
      question: `Delete dead message ${id}? It cannot be replayed afterwards.`,
      declined: 'Nothing deleted.',
      untouched: { message_id: id, deleted: false },
      act: async () => {
        await broker.dlq.delete(id);
        this.log(`Deleted dead message ${id}.`);
        return { message_id: id, deleted: true };
      },
    });
  }
}

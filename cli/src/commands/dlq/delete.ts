import { optionalArg } from '../../lib/args.js';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { describeFilter, filterFlags, oneOrFilter, type DeadLetterFilter } from '../../lib/deadLetterFilter.js';
import { plural } from '../../lib/format.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export type DlqDeleteResult = { message_id: string; deleted: boolean } | (DeadLetterFilter & { deleted: number });

export default class DlqDelete extends BrokerCommand<typeof DlqDelete> {
  static summary = 'Delete dead messages for good: one by id, or those of a queue or reason.';

  static description = `${ASKS_FIRST} A deleted message is never delivered again; to have it consumed after all, replay it instead (dlq:replay). With --queue and/or --reason, the matching dead messages are deleted, oldest first, all of them unless --limit is given (--reason alone: of every queue). A message that is not dead (replayed meanwhile, say) is left alone.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --yes --json',
    '<%= config.bin %> <%= command.id %> --queue email-queue --reason OVERFLOW --yes',
  ];

  static args = {
    id: optionalArg('Id of the dead message to delete.'),
  };

  static flags = {
    ...filterFlags('delete'),
    yes: yesFlag,
  };

  async run(): Promise<DlqDeleteResult> {
    const { id } = this.args;
    const filter = oneOrFilter('dlq:delete', id, this.flags);
    const broker = await this.broker();
    if (!filter) {
      return confirmThenAct<DlqDeleteResult>(this, this.flags.yes, {
        question: `Delete dead message ${id}? It cannot be replayed afterwards.`,
        declined: 'Nothing deleted.',
        untouched: { message_id: id!, deleted: false },
        act: async () => {
          await broker.dlq.delete(id!);
          this.log(`Deleted dead message ${id}.`);
          return { message_id: id!, deleted: true };
        },
      });
    }
    const which = describeFilter(filter);
    return confirmThenAct<DlqDeleteResult>(this, this.flags.yes, {
      question: `Delete ${filter.limit ? `at most ${plural(filter.limit, 'dead message')}` : 'every dead message'} ${which}? They cannot be replayed afterwards.`,
      declined: 'Nothing deleted.',
      untouched: { ...filter, deleted: 0 },
      act: async () => {
        const { deleted } = await broker.dlq.deleteMatching({ queue: filter.queue ?? undefined, reason: filter.reason ?? undefined, limit: filter.limit });
        this.log(`Deleted ${plural(deleted, 'dead message')} ${which}.`);
        return { ...filter, deleted };
      },
    });
  }
}

import { optionalArg } from '../../lib/args.js';
import type { ReplayResult } from '@miniqueue/sdk';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { describeFilter, filterFlags, oneOrFilter, type DeadLetterFilter } from '../../lib/deadLetterFilter.js';
import { plural } from '../../lib/format.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export type DlqReplayResult = ReplayResult | (DeadLetterFilter & { replayed: number });

export default class DlqReplay extends BrokerCommand<typeof DlqReplay> {
  static summary = 'Move dead messages back to their queue: one by id, or those of a queue or reason.';

  static description = `A replayed message is PENDING again with its retry count reset to 0. With --queue and/or --reason, the matching dead messages are replayed, oldest first, all of them unless --limit is given (--reason alone: of every queue). Replaying many ${ASKS_FIRST.charAt(0).toLowerCase()}${ASKS_FIRST.slice(1)}`;

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    '<%= config.bin %> <%= command.id %> --queue email-queue',
    '<%= config.bin %> <%= command.id %> --queue email-queue --reason RETRIES_EXHAUSTED --limit 100 --yes',
  ];

  static args = {
    id: optionalArg('Id of the dead message to replay.'),
  };

  static flags = {
    ...filterFlags('replay'),
    yes: yesFlag,
  };

  async run(): Promise<DlqReplayResult> {
    const { id } = this.args;
    const filter = oneOrFilter('dlq:replay', id, this.flags);
    const broker = await this.broker();
    if (!filter) {
      const result = await broker.dlq.replay(id!);
      this.log(`Replayed message ${result.message_id}: ${result.status} again.`);
      return result;
    }
    const which = describeFilter(filter);
    return confirmThenAct<DlqReplayResult>(this, this.flags.yes, {
      question: `Replay ${filter.limit ? `at most ${plural(filter.limit, 'dead message')}` : 'every dead message'} ${which}?`,
      declined: 'Nothing replayed.',
      untouched: { ...filter, replayed: 0 },
      act: async () => {
        const { replayed } = await broker.dlq.replayMatching({ queue: filter.queue ?? undefined, reason: filter.reason ?? undefined, limit: filter.limit });
        this.log(`Replayed ${plural(replayed, 'dead message')} ${which}.`);
        return { ...filter, replayed };
      },
    });
  }
}

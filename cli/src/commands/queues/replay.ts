import { Flags } from '@oclif/core';
import type { HistoryReplayResult, ReplayFrom } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { EXIT, Failure } from '../../lib/failure.js';
import { formatTime, plural } from '../../lib/format.js';
import { parseSince } from '../../lib/since.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesReplay extends BrokerCommand<typeof QueuesReplay> {
  static summary = "Deliver a queue's acknowledged messages again, from its history.";

  static description = `Every acked message the queue still keeps (its acked retention) that was published since --since, or after the message --after-id, becomes a new pending message of this queue, naming its original in the headers miniqueue-replay-of and miniqueue-original-published-at. A start earlier than the history reaches back is refused, with the earliest start the broker can replay completely. It first counts what would be replayed; --dry-run stops there. ${ASKS_FIRST}`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue --since 2h --dry-run',
    '<%= config.bin %> <%= command.id %> email-queue --since 2026-11-29T10:00:00Z --yes',
    '<%= config.bin %> <%= command.id %> email-queue --after-id 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
  ];

  static args = {
    name: arg('Queue name.'),
  };

  static flags = {
    since: Flags.string({ summary: 'Messages published at or after this time: RFC 3339, or an age such as 90m, 2h, 1d.', exclusive: ['after-id'] }),
    'after-id': Flags.string({ summary: 'Messages published after this message of the queue.', exclusive: ['since'] }),
    'dry-run': Flags.boolean({ summary: 'Only say how many messages would be replayed.' }),
    yes: yesFlag,
  };

  async run(): Promise<HistoryReplayResult> {
    const { name } = this.args;
    const from = this.from();
    const broker = await this.broker();
    const counted = await broker.history.replay(name, { ...from, dryRun: true });
    const what = `${plural(counted.messages, 'acked message')} of ${name} published ${from.afterId ? `after ${from.afterId}` : `since ${formatTime(counted.since)}`}`;
    if (this.flags['dry-run']) {
      this.log(`Would replay ${what}.`);
      return counted;
    }
    return confirmThenAct(this, this.flags.yes, {
      question: `Replay ${what}?`,
      declined: 'Nothing replayed.',
      untouched: counted,
      act: async () => {
        // One key for this replay: the SDK's retries of it continue it rather than copy again.
        const result = await broker.history.replay(name, from);
        this.log(`Replayed ${plural(result.messages, 'message')} of ${name} (replay ${result.replay_id}).`);
        return result;
      },
    });
  }

  private from(): ReplayFrom {
    const { since, 'after-id': afterId } = this.flags;
    if (afterId !== undefined) return { afterId };
    if (since !== undefined) return { since: parseSince(since) };
    throw new Failure('Give --since or --after-id', 'See `miniqueue queues:replay --help`.', EXIT.usage);
  }
}

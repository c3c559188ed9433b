import { Flags } from '@oclif/core';
import { optionalArg } from '../../lib/args.js';
import type { BulkReplayResult, ReplayResult } from '@miniqueue/sdk';
import { EXIT, Failure } from '../../lib/failure.js';
import { plural } from '../../lib/format.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export type DlqReplayResult = ReplayResult | (BulkReplayResult & { queue: string });

export default class DlqReplay extends BrokerCommand<typeof DlqReplay> {
  static summary = 'Move dead messages back to their queue: one by id, or a whole queue.';

  static description =
    'A replayed message is PENDING again with its retry count reset to 0. With --queue, the oldest dead messages of that queue are replayed first, all of them unless --limit is given.';

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    '<%= config.bin %> <%= command.id %> --queue email-queue',
    '<%= config.bin %> <%= command.id %> --queue email-queue --limit 100',
  ];

  static args = {
    id: optionalArg('Id of the dead message to replay.'),
  };

  static flags = {
    queue: Flags.string({ char: 'q', summary: 'Replay the dead messages of this queue.' }),
    limit: Flags.integer({ summary: 'With --queue: replay at most this many (1-100000).', min: 1, max: 100_000, dependsOn: ['queue'] }),
  };

  async run(): Promise<DlqReplayResult> {
    const { id } = this.args;
    const { queue, limit } = this.flags;
    if (Boolean(id) === Boolean(queue)) {
      throw new Failure('Give either a message id or --queue', 'See `miniqueue dlq:replay --help`.', EXIT.usage);
    }
    const broker = await this.broker();
    if (id) {
      const result = await broker.dlq.replay(id);
      this.log(`Replayed message ${result.message_id}: ${result.status} again.`);
      return result;
    }
    const result = await broker.dlq.replayAll(queue!, { limit });
    this.log(`Replayed ${plural(result.replayed, 'dead message')} of ${queue}.`);
    return { queue: queue!, ...result };
  }
}

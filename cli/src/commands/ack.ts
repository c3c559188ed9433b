import type { AckResult, BatchAckResult } from '@miniqueue/sdk';
import { arg } from '../lib/args.js';
import { EXIT } from '../lib/failure.js';
import { plural } from '../lib/format.js';
import { instanceFlag } from '../lib/holder.js';
import { yellow } from '../lib/style.js';
import { BrokerCommand } from '../base/brokerCommand.js';

/** Most ids one batch ack request takes. */
const MAX_PER_REQUEST = 100;

export default class Ack extends BrokerCommand<typeof Ack> {
  static summary = 'Acknowledge claimed messages: done for good.';

  static description = `Only the consumer holding a message may ack it (the same key, and --instance if its program sent one). One id is acked on its own: a message that is no longer held is a conflict (exit 5). Several ids are acked together; those that could not be are listed, and the exit code is 5. Acking again a message you already acked is answered as done.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    '<%= config.bin %> <%= command.id %> ID1 ID2 ID3 --json',
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --instance replica-2',
  ];

  // Any number of ids after the first.
  static strict = false;

  static args = {
    id: arg('Id of the message to acknowledge (more may follow).'),
  };

  static flags = { ...instanceFlag };

  protected instanceId(): string | undefined {
    return this.flags.instance;
  }

  async run(): Promise<AckResult | BatchAckResult> {
    const ids = this.positionals;
    const broker = await this.broker();
    if (ids.length === 1) {
      const result = await broker.ack(ids[0]);
      this.log(`Acknowledged ${result.message_id}.`);
      return result;
    }
    const result: BatchAckResult = { acked: [], failed: [] };
    for (let start = 0; start < ids.length; start += MAX_PER_REQUEST) {
      const part = await broker.ackMany(ids.slice(start, start + MAX_PER_REQUEST));
      result.acked.push(...part.acked);
      result.failed.push(...part.failed);
    }
    return this.report(result);
  }

  private report(result: BatchAckResult): BatchAckResult {
    this.log(`Acknowledged ${plural(result.acked.length, 'message')}.`);
    for (const failure of result.failed) {
      process.stderr.write(`${yellow('Not acknowledged:')} ${failure.message_id}: ${failure.message}\n`);
    }
    if (result.failed.length === 0) return result;
    // The result is still printed in full; the exit code tells a script that some were not acked.
    if (this.jsonEnabled()) this.logJson(result);
    this.exit(EXIT.conflict);
  }
}

import { Flags } from '@oclif/core';
import type { ExtendResult } from '@miniqueue/sdk';
import { arg } from '../lib/args.js';
import { formatTime } from '../lib/format.js';
import { instanceFlag } from '../lib/holder.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export default class Extend extends BrokerCommand<typeof Extend> {
  static summary = 'Lengthen the lease of a claimed message, so it is not redelivered while work goes on.';

  static description = 'The lease then ends --seconds from now (not from its old end). Only the consumer holding the message may extend it.';

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --seconds 300',
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 -s 3600 --json',
  ];

  static args = {
    id: arg('Id of the claimed message.'),
  };

  static flags = {
    seconds: Flags.integer({ char: 's', summary: 'New lease length from now, in seconds (1-43200).', min: 1, max: 43200, required: true }),
    ...instanceFlag,
  };

  protected instanceId(): string | undefined {
    return this.flags.instance;
  }

  async run(): Promise<ExtendResult> {
    const result = await (await this.broker()).extend(this.args.id, this.flags.seconds);
    this.log(`Lease of ${result.message_id} now ends at ${formatTime(result.lease_expires_at)}.`);
    return result;
  }
}

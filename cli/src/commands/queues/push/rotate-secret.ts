import type { PushEndpointWithSecret } from '@miniqueue/sdk';
import { arg } from '../../../lib/args.js';
import { showNewSecret } from '../../../lib/pushView.js';
import { BrokerCommand } from '../../../base/brokerCommand.js';

export default class QueuesPushRotateSecret extends BrokerCommand<typeof QueuesPushRotateSecret> {
  static summary = "Give a queue's push endpoint a new signing secret, printed once.";

  static description =
    'For an hour the broker signs with the new and the old secret (two v1 values), so the receiver can switch without refusing pushes; rotate again to end the old one at once.';

  static examples = ['<%= config.bin %> <%= command.id %> email-queue | tail -n 1'];

  static args = {
    name: arg('Queue name.'),
  };

  async run(): Promise<PushEndpointWithSecret> {
    const endpoint = await (await this.broker()).push.rotateSecret(this.args.name);
    showNewSecret(endpoint, (line) => this.log(line));
    return endpoint;
  }
}

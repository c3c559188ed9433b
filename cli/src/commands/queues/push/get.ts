import type { PushEndpoint } from '@miniqueue/sdk';
import { arg } from '../../../lib/args.js';
import { renderPush } from '../../../lib/pushView.js';
import { BrokerCommand } from '../../../base/brokerCommand.js';

export default class QueuesPushGet extends BrokerCommand<typeof QueuesPushGet> {
  static summary = "Show a queue's push endpoint (never its secret).";

  static examples = ['<%= config.bin %> <%= command.id %> email-queue'];

  static args = {
    name: arg('Queue name.'),
  };

  async run(): Promise<PushEndpoint> {
    const endpoint = await (await this.broker()).push.get(this.args.name);
    this.log(renderPush(endpoint));
    return endpoint;
  }
}

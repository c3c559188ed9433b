import type { Message } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { renderMessageDetails } from '../../lib/messageView.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class MessagesGet extends BrokerCommand<typeof MessagesGet> {
  static summary = 'Show one message by id, whatever its status.';

  static description = `Nothing is claimed or changed: this only looks. Pending, claimed (with its holder and lease) and dead messages are found, acked ones while their queue keeps them.
Needs view, or consume:<queue> of the message's own queue; a message of another queue is "not found", as an unknown id is.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
    `<%= config.bin %> <%= command.id %> 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 --json | jq -r .payload`,
  ];

  static args = {
    id: arg('Message id.'),
  };

  async run(): Promise<Message> {
    const message = await (await this.broker()).getMessage(this.args.id);
    this.log(renderMessageDetails(message));
    return message;
  }
}

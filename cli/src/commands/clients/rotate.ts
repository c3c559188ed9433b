import { arg } from '../../lib/args.js';
import type { ClientWithKey } from '@miniqueue/sdk';
import { showNewKey } from '../../lib/keyNotice.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class ClientsRotate extends BrokerCommand<typeof ClientsRotate> {
  static summary = 'Issue a new API key for a client; the old key stops working at once.';

  static description = 'Use it when a key is lost or leaked. The new key is printed once; deploy it to the program, whose old key is refused from now on.';

  static examples = ['<%= config.bin %> <%= command.id %> email-service'];

  static args = {
    name: arg('Client name.'),
  };

  async run(): Promise<ClientWithKey> {
    const client = await (await this.broker()).clients.rotate(this.args.name);
    showNewKey(client, (line) => this.log(line));
    return client;
  }
}

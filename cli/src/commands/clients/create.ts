import { arg } from '../../lib/args.js';
import type { ClientWithKey } from '@miniqueue/sdk';
import { showNewKey } from '../../lib/keyNotice.js';
import { SCOPES_HELP, scopeFlag } from '../../lib/scopeFlag.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class ClientsCreate extends BrokerCommand<typeof ClientsCreate> {
  static summary = 'Register a program and print its API key, once.';

  static description = `Each program that publishes or consumes gets its own client and key, with only the scopes it needs:
${SCOPES_HELP}
The key is printed once and stored by the broker only as a hash: copy it now. A lost key is replaced with clients:rotate.`;

  static examples = [
    { description: 'A producer:', command: '<%= config.bin %> <%= command.id %> shop --scope publish:order.placed' },
    {
      description: 'A consumer, capturing its key for a deployment:',
      command: 'MAILER_KEY=$(<%= config.bin %> <%= command.id %> email-service --scope consume:email-queue | tail -n 1)',
    },
    { description: 'Prometheus:', command: '<%= config.bin %> <%= command.id %> prometheus --scope metrics --json' },
  ];

  static args = {
    name: arg('Client name: letters, digits, dot, dash, underscore (lowercased).'),
  };

  static flags = {
    scope: scopeFlag,
  };

  async run(): Promise<ClientWithKey> {
    const client = await (await this.broker()).clients.create(this.args.name, this.flags.scope);
    showNewKey(client, (line) => this.log(line));
    return client;
  }
}

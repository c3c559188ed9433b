import type { Client } from '@miniqueue/sdk';
import { arg } from '../../lib/args.js';
import { clientFacts } from '../../lib/clientView.js';
import { SCOPES_HELP, scopeFlag } from '../../lib/scopeFlag.js';
import { renderPairs } from '../../lib/table.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class ClientsUpdate extends BrokerCommand<typeof ClientsUpdate> {
  static summary = "Change a client's scopes; its key stays the same.";

  static description = `The scopes given replace all of the client's current ones:
${SCOPES_HELP}
What the new scopes no longer allow stops at once on every broker instance, open WebSockets included; those still allowed stay open. The key does not change (clients:rotate issues a new one).`;

  static examples = [
    {
      description: 'Let a consumer also read the dashboard:',
      command: '<%= config.bin %> <%= command.id %> email-service --scope consume:email-queue --scope view',
    },
    { description: 'Take everything but publishing away:', command: '<%= config.bin %> <%= command.id %> shop --scope publish:order.placed' },
  ];

  static args = {
    name: arg('Client name.'),
  };

  static flags = {
    scope: scopeFlag,
  };

  async run(): Promise<Client> {
    const client = await (await this.broker()).clients.update(this.args.name, this.flags.scope);
    this.log(renderPairs(clientFacts(client)));
    return client;
  }
}

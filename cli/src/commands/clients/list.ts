import type { Client } from '@miniqueue/sdk';
import { formatTime } from '../../lib/format.js';
import { layoutOf, outputFlags } from '../../lib/outputFlags.js';
import { renderTable } from '../../lib/table.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class ClientsList extends BrokerCommand<typeof ClientsList> {
  static summary = 'List registered clients with their scopes and key prefixes (never their keys).';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  static flags = { ...outputFlags };

  async run(): Promise<Client[]> {
    const clients = await (await this.broker()).clients.list();
    if (clients.length === 0) this.log('No clients.');
    else
      this.log(
        renderTable(
          clients,
          [
            { header: 'NAME', value: (c) => c.name },
            { header: 'KEY PREFIX', value: (c) => c.key_prefix },
            { header: 'CREATED', value: (c) => formatTime(c.created_at), drop: 2 },
            { header: 'LAST USED', value: (c) => formatTime(c.last_used_at), drop: 1 },
            { header: 'SCOPES', value: (c) => c.scopes.join(', '), shrink: true },
          ],
          layoutOf(this.flags),
        ),
      );
    return clients;
  }
}

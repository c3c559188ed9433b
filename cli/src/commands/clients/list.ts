import type { Client } from '@miniqueue/sdk';
import { formatTime } from '../../lib/format.js';
import { renderTable } from '../../lib/table.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class ClientsList extends BrokerCommand<typeof ClientsList> {
  static summary = 'List registered clients with their scopes and key prefixes (never their keys).';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  async run(): Promise<Client[]> {
    const clients = await (await this.broker()).clients.list();
    if (clients.length === 0) this.log('No clients.');
    else
      this.log(
        renderTable(clients, [
          { header: 'NAME', value: (c) => c.name },
          { header: 'KEY PREFIX', value: (c) => c.key_prefix },
          { header: 'CREATED', value: (c) => formatTime(c.created_at) },
          { header: 'LAST USED', value: (c) => formatTime(c.last_used_at) },
          { header: 'SCOPES', value: (c) => c.scopes.join(', ') },
        ]),
      );
    return clients;
  }
}

import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import { confirm } from '../../lib/prompt.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export interface RevokeResult {
  name: string;
  revoked: boolean;
}

export default class ClientsRevoke extends BrokerCommand<typeof ClientsRevoke> {
  static summary = "Revoke a client: its key stops working at once and its WebSockets close.";

  static description = 'Asks for confirmation unless --yes is given (required when not in a terminal). The name may be registered again later, with a new key.';

  static examples = ['<%= config.bin %> <%= command.id %> email-service', '<%= config.bin %> <%= command.id %> email-service --yes'];

  static args = {
    name: arg('Client name.'),
  };

  static flags = {
    yes: Flags.boolean({ char: 'y', summary: 'Do not ask for confirmation.' }),
  };

  async run(): Promise<RevokeResult> {
    const { name } = this.args;
    const broker = await this.broker();
    if (!this.flags.yes && !(await confirm(`Revoke client ${name}? Its key stops working at once.`))) {
      this.log('Nothing revoked.');
      return { name, revoked: false };
    }
    await broker.clients.delete(name);
    this.log(`Revoked client ${name}.`);
    return { name, revoked: true };
  }
}

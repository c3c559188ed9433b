import { arg } from '../../lib/args.js';
import { ASKS_FIRST, confirmThenAct, yesFlag } from '../../lib/confirmThenAct.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export interface RevokeResult {
  name: string;
  revoked: boolean;
}

export default class ClientsRevoke extends BrokerCommand<typeof ClientsRevoke> {
  static summary = 'Revoke a client: its key stops working at once and its WebSockets close.';

  static description = `${ASKS_FIRST} The name may be registered again later, with a new key.`;

  static examples = ['<%= config.bin %> <%= command.id %> email-service', '<%= config.bin %> <%= command.id %> email-service --yes'];

  static args = {
    name: arg('Client name.'),
  };

  static flags = {
    yes: yesFlag,
  };

  async run(): Promise<RevokeResult> {
    const { name } = this.args;
    const broker = await this.broker();
    return confirmThenAct<RevokeResult>(this, this.flags.yes, {
      question: `Revoke client ${name}? Its key stops working at once.`,
      declined: 'Nothing revoked.',
      untouched: { name, revoked: false },
      act: async () => {
        await broker.clients.delete(name);
        this.log(`Revoked client ${name}.`);
        return { name, revoked: true };
      },
    });
  }
}

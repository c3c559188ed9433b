import { renderPairs } from '../lib/table.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export interface WhoamiResult {
  name: string;
  kind: string;
  scopes: string[];
  url: string;
  profile: string | null;
}

export default class Whoami extends BrokerCommand<typeof Whoami> {
  static summary = 'Show who the key belongs to: name, kind and scopes.';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile prod --json'];

  async run(): Promise<WhoamiResult> {
    const me = await (await this.broker()).auth.me();
    const connection = await this.connection();
    const result = { name: me.name, kind: me.kind, scopes: me.scopes, url: connection.url, profile: connection.profile ?? null };
    this.log(
      renderPairs([
        ['name', result.name],
        ['kind', result.kind],
        ['scopes', result.scopes.join(', ')],
        ['broker', result.url],
        ['profile', result.profile ?? '-'],
      ]),
    );
    return result;
  }
}

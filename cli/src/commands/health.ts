import type { Health, Info } from '@miniqueue/sdk';
import { EXIT } from '../lib/failure.js';
import { loadSdk } from '../lib/sdk.js';
import { renderPairs } from '../lib/table.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export interface HealthResult {
  url: string;
  status: string;
  name: string;
  version: string;
  commit: string;
  github_sign_in: boolean;
}

export default class HealthCommand extends BrokerCommand<typeof HealthCommand> {
  static summary = 'Show whether a broker is up (it reaches its database), and its version and commit.';

  static description =
    'Reads /actuator/health and /actuator/info, which need no key. The exit code is 1 when the broker answers but cannot reach its database (503), as for any failure.';

  static examples = ['<%= config.bin %> <%= command.id %> --url https://mq.example.com', '<%= config.bin %> <%= command.id %> --json'];

  async run(): Promise<HealthResult> {
    const { url } = await this.connection();
    const { MiniQueue } = await loadSdk();
    // Both routes are public: no key is needed, and none is sent.
    const broker = new MiniQueue({ url, retry: { attempts: 1 } });
    const [health, info]: [Health, Info] = await Promise.all([broker.ops.health(), broker.ops.info()]);
    const result = { url, status: health.status, name: info.name, version: info.version, commit: info.commit, github_sign_in: info.github_sign_in };
    this.log(
      renderPairs([
        ['broker', url],
        ['status', result.status],
        ['version', `${result.name} ${result.version}`],
        ['commit', result.commit],
        ['github sign-in', result.github_sign_in ? 'configured' : 'off'],
      ]),
    );
    if (health.status !== 'UP') this.exit(EXIT.failure);
    return result;
  }
}

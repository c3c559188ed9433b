import { DEFAULT_URL, normalizeUrl } from '../lib/connection.js';
import { writeConfig } from '../lib/configStore.js';
import { EXIT, Failure } from '../lib/failure.js';
import { askSecret, interactive, readStdin } from '../lib/prompt.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export interface LoginResult {
  profile: string;
  url: string;
  name: string;
  kind: string;
  scopes: string[];
  config_file: string;
}

export default class Login extends BrokerCommand<typeof Login> {
  static summary = 'Check an API key against a broker and save both as a profile.';

  static description = `The key comes from --api-key or MINIQUEUE_API_KEY; otherwise it is asked for without echo, or read from the first line of standard input when that is not a terminal. It is checked against the broker, then saved with the URL in config.json in the user's config directory (MINIQUEUE_CONFIG_DIR, else $XDG_CONFIG_HOME/miniqueue or ~/.config/miniqueue), readable only by you (mode 0600). The key is never printed back. The profile becomes the one used by default; pick another per command with --profile or MINIQUEUE_PROFILE.`;

  static examples = [
    { description: 'Log in to a local broker (asks for the key):', command: '<%= config.bin %> <%= command.id %> --url http://localhost:8080' },
    {
      description: 'Save a second broker under its own profile, key from a file:',
      command: '<%= config.bin %> <%= command.id %> --url https://mq.example.com --profile prod < prod-admin-key',
    },
  ];

  async run(): Promise<LoginResult> {
    const config = await this.readConfig();
    const profile = this.flags.profile ?? 'default';
    const url = normalizeUrl(this.flags.url ?? config.profiles[profile]?.url ?? DEFAULT_URL);
    const typed = !this.flags['api-key'];
    const apiKey = this.flags['api-key'] ?? (await this.readKey());
    if (!apiKey) throw new Failure('No API key given', 'Pass it on standard input, with --api-key, or in MINIQUEUE_API_KEY.', EXIT.usage);

    this.useConnection({ url, apiKey, profile, keySource: typed ? 'prompt' : 'flag' });
    const me = await (await this.broker()).auth.me();

    config.profiles[profile] = { url, apiKey };
    config.current = profile;
    await writeConfig(this.configFile, config);

    this.log(`Logged in to ${url} as ${me.name} (${me.kind}; scopes: ${me.scopes.join(', ')}).`);
    this.log(`Saved as profile "${profile}" in ${this.configFile}, readable only by you.`);
    return { profile, url, name: me.name, kind: me.kind, scopes: me.scopes, config_file: this.configFile };
  }

  private async readKey(): Promise<string> {
    if (interactive()) return askSecret('API key: ');
    return (await readStdin()).split(/\r?\n/)[0].trim();
  }
}

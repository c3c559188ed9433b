import { writeConfig } from '../lib/configStore.js';
import { EXIT, Failure } from '../lib/failure.js';
import { loadSdk } from '../lib/sdk.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export interface LogoutResult {
  profile: string | null;
  removed: boolean;
  /** The profile used from now on when none is named (another saved one takes over), or null. */
  current: string | null;
  config_file: string;
}

export default class Logout extends BrokerCommand<typeof Logout> {
  static summary = 'Forget a saved profile and its key.';

  static description = `Removes the profile (default: the current one) from the config file. A dashboard session token saved there is also ended on the broker; an API key stays valid (revoke it with clients:revoke). When the current profile goes and others are saved, the first of them becomes current, and the output says which.`;

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile prod'];

  async run(): Promise<LogoutResult> {
    const config = await this.readConfig();
    const name = this.flags.profile ?? config.current ?? null;
    const profile = name ? config.profiles[name] : undefined;
    if (!name || !profile) {
      if (this.flags.profile) throw new Failure(`No saved profile named ${this.flags.profile}`, null, EXIT.usage);
      this.log('No saved profile: nothing to forget.');
      return { profile: null, removed: false, current: config.current ?? null, config_file: this.configFile };
    }
    if (profile.apiKey.startsWith('mqs_')) await this.endSession(profile.url, profile.apiKey);
    delete config.profiles[name];
    const wasCurrent = config.current === name;
    // Leaving no current profile while others are saved would make the next command fail for want of a key.
    if (wasCurrent) config.current = Object.keys(config.profiles)[0];
    if (config.current === undefined) delete config.current;
    await writeConfig(this.configFile, config);
    this.log(`Forgot profile "${name}" (${profile.url}).`);
    if (wasCurrent && config.current) this.log(`Now using profile "${config.current}" (${config.profiles[config.current].url}).`);
    return { profile: name, removed: true, current: config.current ?? null, config_file: this.configFile };
  }

  /** A session outlives a deleted file unless the broker is told; an unreachable broker must not block forgetting it. */
  private async endSession(url: string, token: string): Promise<void> {
    const { MiniQueue } = await loadSdk();
    await new MiniQueue({ url, apiKey: token }).auth.logout({ retry: { attempts: 1 } }).catch(() => undefined);
  }
}

import { Command, Flags, type Interfaces } from '@oclif/core';
import type { MiniQueue } from '@miniqueue/sdk';
import { describeBrokerError, isBrokerError, type Principal } from '../lib/brokerErrors.js';
import { configPath, readConfig, type ConfigFile } from '../lib/configStore.js';
import { resolveConnection, type Connection } from '../lib/connection.js';
import { EXIT, Failure } from '../lib/failure.js';
import { loadSdk } from '../lib/sdk.js';
import { bold, red } from '../lib/style.js';

export type FlagsOf<T extends typeof Command> = Interfaces.InferredFlags<(typeof BrokerCommand)['baseFlags'] & T['flags']>;
export type ArgsOf<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * Every command talks to one broker: this resolves where and with which key (flags, environment,
 * saved profile), hands out an SDK client, and turns failures into one line with a hint and an
 * exit code. `run()` returns the command's typed result, which `--json` prints as it is.
 */
export abstract class BrokerCommand<T extends typeof Command> extends Command {
  static enableJsonFlag = true;

  static baseFlags = {
    url: Flags.string({
      summary: 'Base URL of the broker. Default: the saved profile, else http://localhost:8080.',
      env: 'MINIQUEUE_URL',
      helpGroup: 'CONNECTION',
    }),
    'api-key': Flags.string({
      summary: 'API key (mq_…) or session token to use. Prefer the environment variable or `miniqueue login`.',
      env: 'MINIQUEUE_API_KEY',
      helpGroup: 'CONNECTION',
    }),
    profile: Flags.string({
      summary: 'Saved profile to use (see `miniqueue login`). Default: the last one logged in.',
      env: 'MINIQUEUE_PROFILE',
      helpGroup: 'CONNECTION',
    }),
  };

  protected flags!: FlagsOf<T>;
  protected args!: ArgsOf<T>;
  /** Every positional argument, for commands that take a list (`static strict = false`). */
  protected positionals: string[] = [];
  private resolved?: Connection;
  private client?: MiniQueue;

  async init(): Promise<void> {
    await super.init();
    const ctor = this.ctor as typeof BrokerCommand;
    const { args, argv, flags } = await this.parse({
      flags: ctor.flags,
      baseFlags: ctor.baseFlags,
      enableJsonFlag: ctor.enableJsonFlag,
      args: ctor.args,
      strict: ctor.strict,
    });
    this.flags = flags as FlagsOf<T>;
    this.args = args as ArgsOf<T>;
    this.positionals = argv.map(String);
  }

  /**
   * Sent as MiniQueue-Instance: with the key's client name it is the consumer identity, so a
   * command can act on a message claimed by one replica of a program sharing that key.
   */
  protected instanceId(): string | undefined {
    return undefined;
  }

  /** `-o json` (commands that print tables) is another way to say --json. */
  jsonEnabled(): boolean {
    return super.jsonEnabled() || (this.flags as { output?: string } | undefined)?.output === 'json';
  }

  /** Commands with a `--transport` flag choose; the others make no call that the stream carries. */
  protected transport(): 'stream' | 'http' {
    const chosen = (this.flags as { transport?: string }).transport;
    return chosen === 'http' ? 'http' : 'stream';
  }

  /** The client's stream, if one was opened, is closed whatever happened, so the process can end. */
  async finally(error: Error | undefined): Promise<unknown> {
    this.client?.close();
    return super.finally(error);
  }

  protected get configFile(): string {
    return configPath(this.config.configDir);
  }

  protected readConfig(): Promise<ConfigFile> {
    return readConfig(this.configFile);
  }

  protected async connection(): Promise<Connection> {
    this.resolved ??= resolveConnection(this.flags, await this.readConfig());
    return this.resolved;
  }

  /** Use this broker and key instead of the resolved ones (login checks a key before saving it). */
  protected useConnection(connection: Connection): void {
    this.resolved = connection;
    this.client = undefined;
  }

  /** An SDK client for the resolved broker and key; a missing key fails here, before any request. */
  protected async broker(): Promise<MiniQueue> {
    if (this.client) return this.client;
    const connection = await this.connection();
    if (!connection.apiKey) {
      throw new Failure(`No API key for ${connection.url}`, `Log in with \`miniqueue login --url ${connection.url}\`, or set MINIQUEUE_API_KEY.`, EXIT.auth);
    }
    const { MiniQueue } = await loadSdk();
    this.client = new MiniQueue({
      url: connection.url,
      apiKey: connection.apiKey,
      instanceId: this.instanceId(),
      transport: this.transport(),
      // A command someone waits on says at once that the broker cannot be reached, rather than
      // riding out a restart for the SDK's default minute: four attempts, about a second.
      retry: { attempts: 4 },
    });
    return this.client;
  }

  async catch(error: Error & { code?: string }): Promise<unknown> {
    if (error.code === 'EEXIT') throw error; // this.exit(), already reported
    const failure = await this.toFailure(error);
    if (!failure) return super.catch(error);
    if (this.jsonEnabled()) this.logJson({ error: failure.toJSON() });
    else this.printFailure(failure);
    this.exit(failure.exitCode);
  }

  private async toFailure(error: Error): Promise<Failure | null> {
    if (error instanceof Failure) return error;
    if (!isBrokerError(error) || !this.resolved) return null;
    return describeBrokerError(error, { connection: this.resolved, command: this.id, principal: () => this.principal() });
  }

  private async principal(): Promise<Principal | null> {
    if (!this.client) return null;
    const me = await this.client.auth.me({ retry: { attempts: 1 } });
    return { name: me.name, scopes: me.scopes };
  }

  private printFailure(failure: Failure): void {
    process.stderr.write(`${red(bold('Error:'))} ${failure.message}\n`);
    if (failure.hint) process.stderr.write(`${bold('Hint:')} ${failure.hint}\n`);
  }

  /** One compact JSON document per line, for results that stream (follow, tail). */
  protected writeJsonLine(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  }
}

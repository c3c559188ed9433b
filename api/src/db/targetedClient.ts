import pg from 'pg';
import { parseDatabaseUrl, type HostAndPort } from './databaseUrl.js';
import { NoSuitableServerError, isReadOnlyTransaction, isServerFull, pgCode } from './errors.js';
import { locatorFor, pointAt, sameHost, serverRole, type HostLocator, type Purpose } from './hostLocator.js';

/** Connection settings, plus what the connection is for (the pools set it; dedicated connections write). */
export type TargetedConfig = pg.ClientConfig & { purpose?: Purpose };

/**
 * A pg client for a multi-host DATABASE_URL (or one with target_session_attrs): it connects to the
 * server the locator names, then checks, on this very connection, that the server is of the kind
 * wanted (a primary can have been demoted since it was found). It stays only as long as that
 * holds: a write refused with 25006, or anybody's discovery that the server has changed, closes
 * it, and its owner reconnects as after any lost connection, to the server found next.
 *
 * Every failure to find or reach a suitable server is a NoSuitableServerError (503 with
 * Retry-After), which the pool waits out for up to MINIQUEUE_DB_CONNECTION_WAIT_SECONDS. Errors
 * that another server would not cure (a wrong password, a missing database, a full server) stay
 * what they are; a full server stays the one found (it is there: the pool waits for a slot on it,
 * and health counts it as reachable, as with a one-host URL).
 */
export class TargetedClient extends pg.Client {
  private readonly locator: HostLocator;
  private readonly purpose: Purpose;
  private at?: HostAndPort;
  private readonly onLeft = (host: HostAndPort) => {
    if (this.at && sameHost(this.at, host)) this.abandon();
  };

  constructor(config: TargetedConfig) {
    const connectionString = config.connectionString ?? '';
    super({ ...config, connectionString: parseDatabaseUrl(connectionString).singleHostUrl });
    this.locator = locatorFor(connectionString, config);
    this.purpose = config.purpose ?? 'writes';
    this.watchForReadOnly();
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: (err?: Error) => void): void;
  override connect(callback?: (err?: Error) => void): Promise<pg.Client> | void {
    const connected = this.connectToSuitable();
    if (!callback) return connected;
    connected.then(
      () => callback(),
      (error: Error) => callback(error),
    );
  }

  private async connectToSuitable(): Promise<pg.Client> {
    const host = await this.locator.find(this.purpose);
    if (!host) throw new NoSuitableServerError('no host answered as the kind of server wanted');
    pointAt(this, host);
    try {
      await super.connect();
    } catch (error) {
      // A full server is still the one found (asking all the hosts again would find it full too,
      // and call every one unreachable); the refusal is the caller's to wait out, as with one host.
      if (isServerFull(error)) throw error;
      this.locator.forget(host);
      throw isCuredElsewhere(error) ? new NoSuitableServerError(String(error)) : error;
    }
    const role = await serverRole(this).catch(async (error: unknown) => {
      this.locator.forget(host);
      await this.end().catch(() => undefined);
      throw new NoSuitableServerError(String(error));
    });
    if (!this.locator.suits(this.purpose, role)) {
      this.locator.leave(host);
      await this.end().catch(() => undefined);
      throw new NoSuitableServerError(`${host.host}:${host.port} is no longer the kind of server wanted`);
    }
    this.at = host;
    this.locator.on('left', this.onLeft);
    this.once('end', () => this.locator.off('left', this.onLeft));
    return this;
  }

  /** 25006 on any statement: this server takes no writes now, so no connection stays on it. */
  private watchForReadOnly(): void {
    // pg.Client's query, looked up at each call, so that what wraps it later still sees every statement.
    const query = (...args: unknown[]) => (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
    const notice = (error: unknown) => {
      if (this.at && this.purpose === 'writes' && isReadOnlyTransaction(error)) this.locator.leave(this.at);
    };
    this.query = ((...args: unknown[]) => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, result: unknown) => {
          notice(error);
          callback(error, result);
        };
        return query(...args);
      }
      const result = query(...args);
      if (result instanceof Promise) result.catch(notice);
      return result;
    }) as typeof this.query;
  }

  /** Closes the socket: the client fails what is in flight and emits 'error' and 'end', as on a network loss. */
  private abandon(): void {
    this.connection.stream.destroy();
  }
}

/** A server that refused or dropped the connection, or is starting or stopping: another may do. */
function isCuredElsewhere(error: unknown): boolean {
  const code = pgCode(error);
  // A SQLSTATE has five characters; anything else (ECONNREFUSED, …) is the network's.
  return code === undefined || code.length !== 5 || code.startsWith('57P') || code.startsWith('08');
}

/** Whether connections for this URL go through the locator (several hosts, or a session asked for). */
export function isTargeted(connectionString: string | undefined): boolean {
  if (connectionString === undefined) return false;
  try {
    return parseDatabaseUrl(connectionString).sessionAttrs !== undefined;
  } catch {
    // Not a URL of ours (a socket path, say): pg reads it as before.
    return false;
  }
}

/** A client for the config's URL: a TargetedClient where it names several hosts, else a plain pg client. */
export function newClient(config: TargetedConfig): pg.Client {
  return isTargeted(config.connectionString) ? new TargetedClient(config) : new pg.Client(config);
}

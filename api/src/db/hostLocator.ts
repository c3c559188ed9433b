import { EventEmitter } from 'node:events';
import pg from 'pg';
import { parseDatabaseUrl, type DatabaseTarget, type HostAndPort } from './databaseUrl.js';
import { isServerFull } from './errors.js';

/**
 * Which of a multi-host URL's servers a connection should go to, found by asking them (libpq's
 * target_session_attrs, done here because node-postgres has no multi-host support).
 *
 * One locator per connection string and process, so every pool, the LISTEN connection and the
 * coordination connection share what it learnt: the server found last is tried first, and only
 * when a connection there fails (refused, gone, or no longer the right kind) are all the hosts
 * asked again, at once, each with its own short connection. Whoever sees a server turn out wrong
 * (a standby where the primary was, 25006 read_only_sql_transaction on a write) calls leave(),
 * and every connection still open to that server closes at once (db/targetedClient.ts), which
 * each owner already handles as a lost connection: the pool discards it, the bus reconnects.
 */

/** What a connection is for: the broker's writes (and LISTEN), or the dashboard's reads. */
export type Purpose = 'writes' | 'reads';

export interface ServerRole {
  inRecovery: boolean;
  readOnly: boolean;
}

/** One round trip, on every new connection and every probe: the checks libpq makes, in one. */
const ROLE_QUERY = "SELECT pg_is_in_recovery() AS in_recovery, current_setting('transaction_read_only') = 'on' AS read_only";

export async function serverRole(client: pg.ClientBase): Promise<ServerRole> {
  const { rows } = await client.query<{ in_recovery: boolean; read_only: boolean }>(ROLE_QUERY);
  return { inRecovery: rows[0].in_recovery, readOnly: rows[0].read_only };
}

/** A probe that takes longer than this counts as a server that is not there. */
const PROBE_TIMEOUT_MS = 2_000;

export const sameHost = (a: HostAndPort, b: HostAndPort) => a.host === b.host && a.port === b.port;

/** Points a client made from the one-host URL at another host, before it connects. */
export function pointAt(client: pg.Client, at: HostAndPort): void {
  const parameters = (client as unknown as { connectionParameters: { host: string; port: number } }).connectionParameters;
  client.host = parameters.host = at.host;
  client.port = parameters.port = at.port;
}

export class HostLocator extends EventEmitter<{ left: [HostAndPort] }> {
  private readonly found = new Map<Purpose, HostAndPort>();
  private readonly probing = new Map<Purpose, Promise<HostAndPort | undefined>>();

  constructor(
    readonly target: DatabaseTarget,
    private readonly probeConfig: pg.ClientConfig,
  ) {
    super();
    this.setMaxListeners(0);
  }

  /** Whether a server in this role may carry connections for this purpose. */
  suits(purpose: Purpose, role: ServerRole): boolean {
    if (purpose === 'reads' && this.target.sessionAttrs === 'prefer-standby') return true;
    return this.target.sessionAttrs === 'primary' ? !role.inRecovery : !role.readOnly;
  }

  /** The server to connect to, or undefined when none of the hosts is of the kind wanted now. */
  async find(purpose: Purpose): Promise<HostAndPort | undefined> {
    const known = this.found.get(purpose);
    if (known) return known;
    let probe = this.probing.get(purpose);
    if (!probe) {
      probe = this.probeAll(purpose).finally(() => this.probing.delete(purpose));
      this.probing.set(purpose, probe);
    }
    return probe;
  }

  /** A connection to `host` failed: ask all the hosts again next time, but keep what is open. */
  forget(host: HostAndPort): void {
    for (const [purpose, known] of this.found) if (sameHost(known, host)) this.found.delete(purpose);
  }

  /** `host` is not what its connections need any more: forget it and close them all. */
  leave(host: HostAndPort): void {
    this.forget(host);
    this.emit('left', host);
  }

  private async probeAll(purpose: Purpose): Promise<HostAndPort | undefined> {
    const answers = await Promise.all(this.target.hosts.map((host) => this.probe(host)));
    const roles = answers.map((answer) => (answer === 'full' ? undefined : answer));
    // prefer-standby (the dashboard's reads): a standby if one answers, else any server that does.
    const preferred = purpose === 'reads' && this.target.sessionAttrs === 'prefer-standby' ? this.target.hosts.find((_, i) => roles[i]?.inRecovery) : undefined;
    const chosen =
      preferred ??
      this.target.hosts.find((_, i) => {
        const role = roles[i];
        return role !== undefined && this.suits(purpose, role);
      });
    if (chosen) this.found.set(purpose, chosen);
    // None suits among those that let the probe in; one that refused it for being full is there,
    // and may be the one: a connection tries it (and checks it) rather than calling all unreachable.
    return chosen ?? this.target.hosts.find((_, i) => answers[i] === 'full');
  }

  /** The server's role; `full` when it refused the probe at max_connections; undefined: no answer. */
  private async probe(host: HostAndPort): Promise<ServerRole | 'full' | undefined> {
    const client = new pg.Client({
      ...this.probeConfig,
      connectionString: this.target.singleHostUrl,
      application_name: 'miniqueue-probe',
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      query_timeout: PROBE_TIMEOUT_MS,
    });
    pointAt(client, host);
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await serverRole(client);
    } catch (error) {
      return isServerFull(error) ? 'full' : undefined;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

const locators = new Map<string, HostLocator>();

/** The process's one locator for this connection string (which must be a multi-host or checked one). */
export function locatorFor(connectionString: string, config: pg.ClientConfig): HostLocator {
  let locator = locators.get(connectionString);
  if (!locator) {
    locator = new HostLocator(parseDatabaseUrl(connectionString), { ssl: config.ssl });
    locators.set(connectionString, locator);
  }
  return locator;
}

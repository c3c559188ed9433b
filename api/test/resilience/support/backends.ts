import type pg from 'pg';

/**
 * Terminates the broker's backends in `admin`'s database whose application_name is `application`
 * (or starts with it, for a trailing `%`), as a failover or an administrator would; with
 * `inTransaction`, only those in the middle of a transaction. Only this database: other test
 * files share the PostgreSQL server. Returns how many were terminated.
 */
export async function terminateBackends(admin: pg.ClientBase, application: string, inTransaction = false): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE $1
        AND (NOT $2 OR xact_start IS NOT NULL)`,
    [application, inTransaction],
  );
  return rows[0].n;
}

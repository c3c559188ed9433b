/**
 * Rows of ws_consumer and ws_monitor name the PostgreSQL session that wrote them (its pid and start
 * time), so that another instance can tell once that session is gone: the instance died. Run the
 * statements that write them on the instance's coordination session. backend_start is compared in
 * SQL only: a JS Date would drop its microseconds.
 */
export const SESSION_OWNER = `pg_backend_pid(), (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid())`;

/** True for a row (aliased `t`) whose owning session no longer exists. */
export const OWNER_GONE = `NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = t.owner_pid AND a.backend_start = t.owner_started)`;

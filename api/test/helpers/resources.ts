import { createHook } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Timers alive in this process, unref'd ones included (process.getActiveResourcesInfo() leaves
 * those out, and the broker unrefs its own): counted from their creation to their end.
 */
export function timerCounter(): { count(): number; stop(): void } {
  const live = new Set<number>();
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout') live.add(id);
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  return { count: () => live.size, stop: () => hook.disable() };
}

/** Handles that keep the process alive (sockets, servers, ref'd timers), counted by kind. */
export function activeHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** Sessions open on a database, other than the one asking. */
export async function databaseSessions(admin: pg.Client, databaseUrl: string): Promise<number> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
    database,
  ]);
  return rows[0].n;
}

import { withClient } from './postgres.js';

/**
 * What the WAL of a workload was made of, read back with pg_walinspect (PostgreSQL 15+, in the
 * server's maintenance database, never in a broker's): bytes per resource manager (Heap for
 * table rows, Btree for index entries, Transaction for commits, ...) and how much of it was
 * full-page images. A checkpoint runs before every workload, so the first change to each page
 * writes the whole page: that part says how many distinct pages a workload touches, the rest
 * how much each change writes (fewer indexes, HOT updates and smaller rows shrink it).
 *
 * Needs superuser or pg_read_server_files; without them (or pg_walinspect) only the total is
 * reported.
 */
export interface WalBreakdown {
  recordBytes: number;
  fpiBytes: number;
  /** Record + image bytes per resource manager, largest first. */
  byKind: { kind: string; bytes: number }[];
}

let available: Promise<boolean> | undefined;

function ensureExtension(serverUrl: string): Promise<boolean> {
  available ??= withClient(serverUrl, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    return true;
  }).catch(() => false);
  return available;
}

export async function walBreakdown(serverUrl: string, range: { start: string; end: string }): Promise<WalBreakdown | null> {
  if (!(await ensureExtension(serverUrl))) return null;
  try {
    return await withClient(serverUrl, async (client) => {
      const { rows } = await client.query<{ kind: string; record_size: string; fpi_size: string }>(
        `SELECT "resource_manager/record_type" AS kind, record_size::text, fpi_size::text
           FROM pg_get_wal_stats($1::pg_lsn, $2::pg_lsn, false)
          WHERE count > 0`,
        [range.start, range.end],
      );
      const byKind = rows.map((row) => ({ kind: row.kind, bytes: Number(row.record_size) + Number(row.fpi_size) })).sort((a, b) => b.bytes - a.bytes);
      return {
        recordBytes: rows.reduce((sum, row) => sum + Number(row.record_size), 0),
        fpiBytes: rows.reduce((sum, row) => sum + Number(row.fpi_size), 0),
        byKind,
      };
    });
  } catch {
    return null; // WAL already recycled, or no permission: the total still stands
  }
}

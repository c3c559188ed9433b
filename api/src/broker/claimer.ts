import { isDatabaseUnavailable } from '../db/errors.js';
import type { Pool } from '../db/pool.js';
import { messageClaim, type ClaimItem } from '../db/queries/messageClaim.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { GroupCommit, type BatchResult } from './groupCommit.js';

/**
 * Claims, group-committed: the claims of every consumer that asks in the same turn of the event
 * loop (or while earlier claims run) go to PostgreSQL as one statement and one commit.
 */
export class Claimer {
  private readonly claims: GroupCommit<ClaimItem, MessageRow[]>;

  constructor(private readonly deps: { pool: Pool; groupCommit: { maxBatch: number; maxInFlight: number } }) {
    this.claims = new GroupCommit((items) => this.claimBatch(items), { ...deps.groupCommit, isFinal: isDatabaseUnavailable });
  }

  get groupCommitStats() {
    return this.claims.stats;
  }

  claim(item: ClaimItem): Promise<MessageRow[]> {
    return this.claims.submit(item);
  }

  /** One statement and nothing read after it: it throws only when nothing was claimed (groupCommit.ts). */
  private async claimBatch(items: ClaimItem[]): Promise<BatchResult<MessageRow[]>[]> {
    const rows = await messageClaim(this.deps.pool, items);
    const byRef = items.map((): MessageRow[] => []);
    for (const { ref, ...row } of rows) byRef[ref].push(row);
    return byRef;
  }
}

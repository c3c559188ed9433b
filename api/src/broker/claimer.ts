import { isDatabaseUnavailable } from '../db/errors.js';
import type { Pool } from '../db/pool.js';
import { messageClaim, type ClaimItem } from '../db/queries/messageClaim.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { GatedClaims, type ClaimOutcome } from './gatedClaims.js';
import { GroupCommit, type BatchResult, type GroupCommitLimits } from './groupCommit.js';
import { now, tracing } from '../tracing/spans.js';
import { traceDeliveries } from './deliverySpans.js';

/**
 * Claims, group-committed: the claims of every consumer that asks in the same turn of the event
 * loop (or while earlier claims run) go to PostgreSQL as one statement and one commit.
 */
export class Claimer {
  private readonly claims: GroupCommit<ClaimItem, MessageRow[]>;
  /** Queues with a delivery gate go through their own statement (gatedClaims.ts). */
  readonly gated: GatedClaims;

  constructor(private readonly deps: { pool: Pool; groupCommit: GroupCommitLimits }) {
    this.claims = new GroupCommit((items) => this.claimBatch(items), { ...deps.groupCommit, isFinal: isDatabaseUnavailable });
    this.gated = new GatedClaims(deps);
  }

  get groupCommitStats() {
    return this.claims.stats;
  }

  claim(item: ClaimItem): Promise<MessageRow[]> {
    return this.claims.submit(item);
  }

  /** The claim of a long poll or stream: through the gated statement when its queue is known to have a gate. */
  async claimWaiting(item: ClaimItem, waitSeconds: number): Promise<ClaimOutcome> {
    if (this.gated.has(item.queue)) return this.gated.claim(item, waitSeconds);
    return { rows: await this.claims.submit(item) };
  }

  /** One statement and nothing read after it: it throws only when nothing was claimed (groupCommit.ts). */
  private async claimBatch(items: ClaimItem[]): Promise<BatchResult<MessageRow[]>[]> {
    const started = tracing.enabled ? now() : 0;
    const rows = await messageClaim(this.deps.pool, items);
    traceDeliveries(rows, started);
    const byRef = items.map((): MessageRow[] => []);
    for (const { ref, ...row } of rows) byRef[ref].push(row);
    return byRef;
  }
}

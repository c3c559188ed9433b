import { isDatabaseUnavailable } from '../db/errors.js';
import type { Pool } from '../db/pool.js';
import { inDeliveryOrder, type ClaimItem } from '../db/queries/messageClaim.js';
import { messageClaimGated, queueActiveConsumerResign, type GatedClaimItem } from '../db/queries/messageClaimGated.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { now, tracing } from '../tracing/spans.js';
import { traceDeliveries } from './deliverySpans.js';
import { GroupCommit, type BatchResult, type GroupCommitLimits } from './groupCommit.js';

/**
 * How long a single active consumer keeps its turn after its last claim's wait ended, if it asks
 * no more and holds no lease: the bound within which the next consumer takes over from one that
 * stopped polling.
 */
export const ACTIVE_CONSUMER_IDLE_SECONDS = 5;
/**
 * How often a consumer waiting for its turn asks again. No notification says that a turn was
 * given up on another instance, so this is the takeover's bound after a stream closes there.
 */
export const STANDBY_RECHECK_MS = 1_000;
/**
 * How often a consumer of a fair queue looks again while every key with waiting messages is at its
 * max_in_flight_per_key. A publish anywhere, or an ack, nack or lease expiry on this instance, wakes
 * it sooner (longPollWakeups.ts); an ack on another instance sends no notification, so this bounds
 * how late the key's next message can be when it is acked there.
 */
export const FAIR_RECHECK_MS = 250;

/** What a claim got, and when the gate (not an empty queue) held it back, until when to wait. */
export interface ClaimOutcome {
  rows: MessageRow[];
  /** Set when a gate gave nothing: wait this long (or until woken) before asking again. */
  heldForMs?: number;
  /**
   * What may end that wait early: the gate's own key (a turn given up here), or the queue's (a
   * publish, or room made by an ack: fair queues).
   */
  heldOn?: 'gate' | 'queue';
}

/**
 * Waiters for a gate rather than for messages have a key of their own (`:` is never in a queue
 * name), so a publish wakes the consumers that may take it, not those whose turn it is not.
 */
export const gateWaitKey = (queue: string) => `gate:${queue}`;

/**
 * The claim of queues with a delivery gate (single active consumer, rate limit), group-committed
 * as the plain claim is. Which queues have one is learned, never configured: the plain claim
 * leaves a gated queue alone and its follow-up statement says so (`markGated`), and the gated
 * statement says when a queue has no gate any more. Both statements read the queue's setting, so
 * a stale entry here costs a statement, never a wrong delivery.
 */
export class GatedClaims {
  private readonly known = new Set<string>();
  /** Fair queues whose claims were held here because every waiting key was at its limit. */
  private readonly fair = new Set<string>();
  private readonly claims: GroupCommit<GatedClaimItem, ClaimOutcome>;

  constructor(private readonly deps: { pool: Pool; groupCommit: GroupCommitLimits }) {
    this.claims = new GroupCommit((items) => this.claimBatch(items), { ...deps.groupCommit, isFinal: isDatabaseUnavailable });
  }

  has(queue: string): boolean {
    return this.known.has(queue);
  }

  markGated(queue: string): void {
    this.known.add(queue);
  }

  /** Whether the queue is known to share out by key: an ack there may let a held consumer in. */
  isFair(queue: string): boolean {
    return this.fair.has(queue);
  }

  /** `waitSeconds`: how long the claimer's own wait may last, which its turn outlives by the idle bound. */
  claim(item: ClaimItem, waitSeconds: number): Promise<ClaimOutcome> {
    return this.claims.submit({ ...item, holdSeconds: waitSeconds + ACTIVE_CONSUMER_IDLE_SECONDS });
  }

  /** The holder leaves these queues (its stream ended): the next consumer's turn comes at its next ask. */
  async resign(queues: string[], holder: string): Promise<string[]> {
    const gated = queues.filter((queue) => this.known.has(queue));
    if (gated.length > 0) await queueActiveConsumerResign(this.deps.pool, gated, holder);
    return gated;
  }

  private async claimBatch(items: GatedClaimItem[]): Promise<BatchResult<ClaimOutcome>[]> {
    const started = tracing.enabled ? now() : 0;
    const outcomes = items.map((): ClaimOutcome => ({ rows: [] }));
    const rows = await messageClaimGated(this.deps.pool, items);
    for (const row of rows) {
      if (row.kind === 'message') {
        const { ref, kind: _kind, ...message } = row;
        outcomes[ref].rows.push(message);
        continue;
      }
      const queue = items[row.ref].queue;
      if (!row.gated) this.known.delete(queue);
      if (row.standby) outcomes[row.ref] = { rows: [], heldForMs: STANDBY_RECHECK_MS, heldOn: 'gate' };
      else if (row.wait_ms !== null) outcomes[row.ref] = { rows: [], heldForMs: Math.max(1, row.wait_ms), heldOn: 'gate' };
      else if (row.full) {
        this.fair.add(queue);
        outcomes[row.ref] = { rows: [], heldForMs: FAIR_RECHECK_MS, heldOn: 'queue' };
      }
    }
    for (const outcome of outcomes) outcome.rows.sort(inDeliveryOrder);
    traceDeliveries(
      outcomes.flatMap((outcome) => outcome.rows),
      started,
    );
    return outcomes;
  }
}

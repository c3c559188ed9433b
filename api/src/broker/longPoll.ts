import { NotFoundError } from '../errors.js';
import type { Pool } from '../db/pool.js';
import { messageNextAvailable } from '../db/queries/messageClaim.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { transitionsOf, type Changes } from './changes.js';
import { heldOf, putBack } from './putBack.js';
import type { Claimer } from './claimer.js';
import { gateWaitKey } from './gatedClaims.js';
import type { QueueWaiters } from './longPollWaiters.js';

/** A message that is available but locked by another claim right now: look again shortly. */
const LOCKED_RECHECK_MS = 50;

export interface ClaimRequest {
  queue: string;
  /** The credential's id (plus instance): what the lease is fenced on. */
  holder: string;
  /** The same, as people read it. */
  consumerId: string;
  limit: number;
  waitSeconds: number;
  /** Aborted when the requester is gone, or its credential no longer allows it: nothing may then be claimed for it. */
  signal?: AbortSignal;
  /**
   * A check of the credential under way (it changed while the request waited): no claim is made,
   * and none is handed out, before it has settled. Undefined, as nearly always, costs nothing.
   */
  credentialCheck?: () => Promise<void> | undefined;
  /** What the claims may bring back (a stream's output, stream/outbox.ts); undefined: no bound but `limit`. */
  budget?: ClaimBudget;
}

/**
 * A bound on the payload bytes of a claim, asked for before each statement (never held while a claim
 * waits for messages), and told after it what came back.
 */
export interface ClaimBudget {
  /** Payload bytes the next statement may bring back (it takes one message at least); 0: claim nothing now. */
  reserve(limit: number): number;
  /** The statement that reserved `reserved` is done; these rows are handed to the requester now. */
  claimed(reserved: number, rows: MessageRow[]): void;
}

/**
 * Claims up to `limit` messages; with `waitSeconds` > 0, waits until a message becomes claimable
 * (woken by a commit on this instance or a notification from another, or by the time a delayed
 * message becomes available) or the time is up. The first attempt is one statement; only an empty
 * queue costs a second one. A requester that left, or whose credential changed so that it may not
 * (http/longPollCredentials.ts), claims nothing: checked before each claim, and a claim that raced
 * with the leaving or the change is put back at once, its retry count untouched.
 */
export async function claimMessages(
  deps: { pool: Pool; claimer: Claimer; waiters: QueueWaiters; changes: Changes },
  request: ClaimRequest,
): Promise<MessageRow[]> {
  const { pool, waiters } = deps;
  const deadline = Date.now() + request.waitSeconds * 1000;
  for (;;) {
    const check = request.credentialCheck?.();
    if (check) await check;
    if (request.signal?.aborted) return [];
    const maxBytes = request.budget?.reserve(request.limit);
    // No room for what a claim would bring back: the requester is told when there is (outbox.ts).
    if (maxBytes === 0) return [];
    const ticket = request.waitSeconds > 0 ? waiters.register(request.queue) : undefined;
    let claimed: MessageRow[];
    let heldForMs: number | undefined;
    let heldOn: 'gate' | 'queue' | undefined;
    // Which statement this attempt takes: what an empty answer then says about the queue.
    const throughGate = deps.claimer.gated.has(request.queue);
    try {
      const item = maxBytes === undefined ? request : { ...request, maxBytes };
      ({ rows: claimed, heldForMs, heldOn } = await deps.claimer.claimWaiting(item, Math.max(0, (deadline - Date.now()) / 1000)));
    } catch (error) {
      ticket?.cancel();
      if (maxBytes !== undefined) request.budget?.claimed(maxBytes, []);
      throw error;
    }
    if (claimed.length === 0 && maxBytes !== undefined) request.budget?.claimed(maxBytes, []);
    if (heldForMs !== undefined) {
      // A delivery gate said not yet (another consumer's turn, no token, every waiting key at its limit).
      ticket?.cancel();
      if (!(await waitForGate(waiters, request, deadline, heldForMs, heldOn))) return [];
      continue;
    }
    if (claimed.length > 0) {
      ticket?.cancel();
      // Announced as every committed claim is, even one put back below: the put-back takes it back.
      deps.changes.committed(
        transitionsOf(
          'CONSUMED',
          claimed.map((row) => ({ queue: row.queue_name, id: row.id })),
        ),
      );
      // A credential change heard while the claim ran may have come before it: settle that first.
      const recheck = request.credentialCheck?.();
      if (recheck) await recheck;
      if (request.signal?.aborted) {
        try {
          await putBack(deps, heldOf(claimed), request.holder);
        } finally {
          if (maxBytes !== undefined) request.budget?.claimed(maxBytes, []);
        }
        return [];
      }
      if (maxBytes !== undefined) request.budget?.claimed(maxBytes, claimed);
      return claimed;
    }
    const { queueExists, gated, nextAvailableAt } = await messageNextAvailable(pool, request.queue).catch((error) => {
      ticket?.cancel();
      throw error;
    });
    if (!queueExists) {
      ticket?.cancel();
      throw new NotFoundError('queue_not_found', `No queue found with the name ${request.queue}`);
    }
    // Asked by the other requests' empty claims meanwhile or not, this one went the plain way.
    if (gated && !throughGate) {
      // The plain claim left it alone: claim again, through its gate.
      ticket?.cancel();
      deps.claimer.gated.markGated(request.queue);
      continue;
    }
    const now = Date.now();
    if (!ticket || now >= deadline || request.signal?.aborted || waiters.closed) {
      ticket?.cancel();
      return [];
    }
    // A lost notification is made up for by the per-queue recheck (longPollRecheck.ts), not here.
    let until = deadline;
    if (nextAvailableAt) until = Math.min(until, Math.max(nextAvailableAt.getTime(), now + LOCKED_RECHECK_MS));
    await ticket.wait(until, request.signal);
    // Shutting down: answer now (empty) rather than start another claim on a closing pool.
    if (waiters.closed) return [];
  }
}

/**
 * Waits for a gate: `heldForMs`, the deadline, or a wake-up, whichever is first: of the gate's own
 * key (a turn given up on this instance) or, for a fair queue, of the queue's (a publish, or an ack
 * that made room). Says whether to claim again.
 */
async function waitForGate(
  waiters: QueueWaiters,
  request: ClaimRequest,
  deadline: number,
  heldForMs: number,
  heldOn: 'gate' | 'queue' = 'gate',
): Promise<boolean> {
  const now = Date.now();
  if (request.waitSeconds <= 0 || now >= deadline || request.signal?.aborted || waiters.closed) return false;
  const key = heldOn === 'queue' ? request.queue : gateWaitKey(request.queue);
  await waiters.register(key).wait(Math.min(deadline, now + heldForMs), request.signal);
  return !waiters.closed && !request.signal?.aborted;
}

import { BrokerError, ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import {
  messageAck,
  messageExtend,
  messageFindState,
  messageNack,
  type AckedRow,
  type Holder,
} from '../db/queries/message.js';

export type { Holder };

/**
 * Why a message could not be settled by this holder. Checked only after the guarded UPDATE
 * changed nothing, so the success path stays one statement.
 */
function explain(
  id: string,
  state: { queue_name: string; status: string } | undefined,
  holder: Holder,
): BrokerError {
  if (!state) return new NotFoundError(`No message found with the id ${id}`);
  if (holder.queues && !holder.queues.includes(state.queue_name)) {
    return new ForbiddenError(`Settling this message needs the scope consume:${state.queue_name}`);
  }
  if (state.status !== 'UNACKED') return new ConflictError(`Message ${id} is ${state.status}, not UNACKED`);
  return new ConflictError(`Message ${id} is held by another consumer, or its lease was lost`);
}

async function failure(db: Queryable, id: string, holder: Holder): Promise<BrokerError> {
  const [state] = await messageFindState(db, [id]);
  return explain(id, state, holder);
}

export async function ackOne(db: Queryable, id: string, holder: Holder): Promise<AckedRow> {
  const [acked] = await messageAck(db, [id], holder);
  if (!acked) throw await failure(db, id, holder);
  return acked;
}

export interface AckManyResult {
  acked: AckedRow[];
  failed: { message_id: string; status: number; message: string }[];
}

/** Acks what the holder holds; every other id is reported with an HTTP-like status. */
export async function ackMany(db: Queryable, ids: string[], holder: Holder): Promise<AckManyResult> {
  const unique = [...new Set(ids)];
  const acked = await messageAck(db, unique, holder);
  const ackedIds = new Set(acked.map((row) => row.id));
  const missed = unique.filter((id) => !ackedIds.has(id));
  if (missed.length === 0) return { acked, failed: [] };
  const states = new Map((await messageFindState(db, missed)).map((state) => [state.id, state]));
  const failed = missed.map((id) => {
    const error = explain(id, states.get(id), holder);
    return { message_id: id, status: error.status, message: error.message };
  });
  return { acked, failed };
}

export async function nackOne(
  db: Queryable,
  id: string,
  holder: Holder,
  options: { requeue: boolean; delaySeconds: number },
) {
  const nacked = await messageNack(db, id, holder, options);
  if (!nacked) throw await failure(db, id, holder);
  return nacked;
}

export async function extendLease(db: Queryable, id: string, holder: Holder, seconds: number) {
  const extended = await messageExtend(db, id, holder, seconds);
  if (!extended) throw await failure(db, id, holder);
  return extended;
}

import { Flags } from '@oclif/core';
import type { DeadReason } from '@miniqueue/sdk';
import { EXIT, Failure } from './failure.js';

/** Every reason the contract knows; the record makes a new one a type error here until it is described. */
export const DEAD_REASONS: Record<DeadReason, string> = {
  NACKED: 'refused by a consumer',
  RETRIES_EXHAUSTED: 'nacked with no retries left',
  EXPIRED: 'lease ran out with no retries left',
  OVERFLOW: 'pushed out of a full bounded queue',
  TTL_EXPIRED: 'its time to live ran out before delivery',
};

export const reasonFlag = Flags.option({
  options: Object.keys(DEAD_REASONS) as DeadReason[],
  summary: `Only those that died this way: ${Object.entries(DEAD_REASONS)
    .map(([reason, why]) => `${reason} (${why})`)
    .join(', ')}.`,
})();

/** Which dead letters a bulk replay or delete takes: the broker's filter (queue, reason, limit). */
export interface DeadLetterFilter {
  queue: string | null;
  reason: DeadReason | null;
  limit?: number;
}

/** --queue, --reason and --limit of the commands that act on many dead letters at once. */
export function filterFlags(verb: 'replay' | 'delete') {
  return {
    queue: Flags.string({ char: 'q', summary: `${verb === 'replay' ? 'Replay' : 'Delete'} the dead messages of this queue.` }),
    reason: reasonFlag,
    limit: Flags.integer({ summary: `With a filter: ${verb} at most this many, oldest first (1-100000).`, min: 1, max: 100_000 }),
  };
}

/**
 * One message by id, or a filter: never both, never neither (a bulk action over every dead letter
 * of every queue must name at least a queue or a reason).
 */
export function oneOrFilter(command: string, id: string | undefined, flags: { queue?: string; reason?: DeadReason; limit?: number }): DeadLetterFilter | null {
  const filtered = flags.queue !== undefined || flags.reason !== undefined;
  if (Boolean(id) === filtered || (id && flags.limit !== undefined)) {
    throw new Failure('Give either a message id or a filter (--queue, --reason)', `See \`miniqueue ${command} --help\`.`, EXIT.usage);
  }
  return id ? null : { queue: flags.queue ?? null, reason: flags.reason ?? null, limit: flags.limit };
}

/** "of email-queue that died NACKED", "of every queue that died OVERFLOW", "of email-queue". */
export function describeFilter(filter: DeadLetterFilter): string {
  return `of ${filter.queue ?? 'every queue'}${filter.reason ? ` that died ${filter.reason}` : ''}`;
}

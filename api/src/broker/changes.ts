import { EventEmitter } from 'node:events';

/** The broker's transition names, as the monitor feed and the wake-ups know them. */
export type TransitionEvent =
  | 'PUBLISHED'
  | 'CONSUMED'
  | 'ACKED'
  | 'NACKED'
  | 'NACKED_DEAD'
  | 'REDELIVERED'
  | 'EXPIRED_DEAD'
  // Its time to live ran out before delivery (jobs/expirySweeper.ts), dead-lettered (TTL_EXPIRED).
  | 'TTL_DEAD'
  | 'REPLAYED'
  // Given back unsettled by a holder that cannot use them (broker/putBack.ts): PENDING, retry count unchanged.
  | 'RELEASED'
  // The next message of an ordering key, claimable now that the one before it left (no monitor event).
  | 'UNBLOCKED';

/** Transitions after which messages are PENDING again: claimable now or at `availableAt`. */
export const MAKES_CLAIMABLE: ReadonlySet<TransitionEvent> = new Set(['PUBLISHED', 'NACKED', 'REDELIVERED', 'REPLAYED', 'RELEASED', 'UNBLOCKED']);

/** Messages of one queue that made one transition in one committed statement. */
export interface Transition {
  event: TransitionEvent;
  queue: string;
  ids: string[];
  /** For MAKES_CLAIMABLE events: when the messages are claimable, as PostgreSQL wrote it (µs). */
  availableAt?: string;
  /** Claimable only later than the commit: waiters and sockets hear of them when they are due. */
  delayed?: boolean;
  /** Stored BLOCKED behind their ordering key's head: claimable only once UNBLOCKED (a transition of its own). */
  blocked?: boolean;
  /** For ACKED: when each message was published, in the order of `ids` (the publish-to-ack time). */
  publishedAt?: Date[];
  /** For RELEASED: when each message was claimed, in the order of `ids` (what un-counts that claim's delivery). */
  claimedAt?: Date[];
  /**
   * For PUBLISHED by a statement other than a publish (dead letters routed to a dead-letter topic):
   * the topic, and how many messages were published to it, counted with these copies as a publish
   * counts its own (a dead letter routed to 3 queues is 1 publish to the topic, 3 copies).
   */
  topic?: string;
  publishes?: number;
}

/** Whether a transition leaves messages claimable, now or at `availableAt`: what wakes consumers. */
export const makesClaimable = (transition: Transition): boolean => MAKES_CLAIMABLE.has(transition.event) && !transition.blocked;

/** One message's part in a transition, before grouping. */
export interface Moved {
  queue: string;
  id: string;
  availableAt?: string;
  delayed?: boolean;
  blocked?: boolean;
  publishedAt?: Date;
  claimedAt?: Date;
  /** A routed dead letter's copy: its topic, and whether it is the first copy of its publish there. */
  topic?: string;
  firstCopy?: boolean;
}

/** Groups the messages of one statement by queue (and by availability time, for claimable ones). */
export function transitionsOf(event: TransitionEvent, moved: Moved[]): Transition[] {
  const groups = new Map<string, Transition>();
  for (const row of moved) {
    const key = `${row.queue}\n${row.availableAt ?? ''}\n${row.blocked ? 'blocked' : ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { event, queue: row.queue, ids: [], availableAt: row.availableAt, delayed: row.delayed };
      if (row.blocked) group.blocked = true;
      groups.set(key, group);
    }
    group.ids.push(row.id);
    if (row.topic !== undefined) {
      group.topic = row.topic;
      group.publishes = (group.publishes ?? 0) + (row.firstCopy ? 1 : 0);
    }
    if (row.publishedAt) (group.publishedAt ??= []).push(row.publishedAt);
    if (row.claimedAt) (group.claimedAt ??= []).push(row.claimedAt);
  }
  return [...groups.values()];
}

/**
 * What this instance's committed statements changed, told in-process right after each commit:
 * local long polls wake at once, and relays tell the other instances (debounced) and the dashboards
 * (coalesced). Nothing here runs inside a transaction, so no commit waits for PostgreSQL's notify
 * lock.
 */
export class Changes extends EventEmitter<{ transitions: [Transition[]] }> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }

  /** Call only after the statement that made these transitions has committed. */
  committed(transitions: Transition[]): void {
    if (transitions.length > 0) this.emit('transitions', transitions);
  }
}

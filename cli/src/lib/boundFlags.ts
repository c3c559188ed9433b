import { Flags } from '@oclif/core';
import type { Overflow, Queue } from '@miniqueue/sdk';
import { EXIT, Failure } from './failure.js';

/** What a bounded queue does with a publish it has no room for (the contract's Overflow). */
const OVERFLOWS = ['reject_publish', 'reject_copy', 'dead_letter_oldest', 'drop_oldest'] as const satisfies readonly Overflow[];

export const BOUND_FORMS =
  'With --max-messages and/or --max-bytes (payload bytes, pending + unacked), a full queue refuses publishes (--overflow reject_publish, 429 queue_full: the whole publish, so on a topic with other queues one full queue stops the publish for every queue of the topic), refuses only its own copy (reject_copy: the other queues still get theirs, and the publish answer names the queue that refused) or makes room by dead-lettering (dead_letter_oldest) or deleting (drop_oldest) its oldest pending messages.';

/**
 * What `queues:create` adds when the new queue refuses whole publishes: one stalled consumer of
 * it stops its topic's other queues too, which is rarely what a side queue wants.
 */
export function sharedTopicWarning(queue: Queue): string | undefined {
  const bounded = queue.max_messages != null || queue.max_bytes != null;
  if (!bounded || (queue.overflow ?? 'reject_publish') !== 'reject_publish') return undefined;
  return `When ${queue.name} is full it refuses every publish to ${queue.topic_name}, for every queue bound to it; --overflow reject_copy refuses only its own copy.`;
}

/** --max-messages, --max-bytes, --overflow; `removable`: a bound may be "none" (queues:update). */
export function boundFlags(removable: boolean) {
  const none = removable ? ', or "none" to remove the bound' : '';
  return {
    'max-messages': Flags.string({ summary: `At most this many messages in the queue at once (1-1000000000)${none}.` }),
    'max-bytes': Flags.string({ summary: `At most this many payload bytes in the queue at once${none}.` }),
    overflow: Flags.string({
      summary: "What a publish without room does (default reject_publish: refused for every queue of the topic; reject_copy: only this queue's copy).",
      options: [...OVERFLOWS],
    }),
  };
}

/** A bound flag's value: undefined when not given, null for "none" (where allowed). */
export function parseBound(flag: string, raw: string | undefined, removable: boolean): number | null | undefined {
  if (raw === undefined) return undefined;
  if (removable && raw === 'none') return null;
  if (!/^[1-9]\d*$/.test(raw)) {
    throw new Failure(`--${flag} must be a positive integer${removable ? ' or "none"' : ''}, got ${raw}`, `See the command's --help.`, EXIT.usage);
  }
  return Number(raw);
}

export const overflowOf = (raw: string | undefined): Overflow | undefined => raw as Overflow | undefined;

/** "100 messages, 1048576 bytes (reject_publish)", or "none". */
export function describeBounds(queue: Queue): string {
  const bounds = [
    queue.max_messages == null ? undefined : `${queue.max_messages} messages`,
    queue.max_bytes == null ? undefined : `${queue.max_bytes} bytes`,
  ].filter((bound) => bound !== undefined);
  return bounds.length === 0 ? 'none' : `${bounds.join(', ')} (${queue.overflow ?? 'reject_publish'})`;
}

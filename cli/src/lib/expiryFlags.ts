import { Flags } from '@oclif/core';
import type { OnExpiry, Queue } from '@miniqueue/sdk';
import { EXIT, Failure } from './failure.js';

/** What an expired message becomes (the contract's OnExpiry). */
const ON_EXPIRY = ['dead_letter', 'drop'] as const satisfies readonly OnExpiry[];

export const EXPIRY_FORMS =
  "With --message-ttl, a message not delivered within that many seconds of its publish is never delivered: it goes to the dead letters (TTL_EXPIRED) or is deleted (--on-expiry drop). With --dead-letter-topic, the queue's dead letters (every reason) are published to that topic, with miniqueue-death-* headers, instead of staying in its DLQ (--dead-letter-keep: as well as).";

/** --message-ttl, --on-expiry, --dead-letter-topic, --dead-letter-keep; `removable`: "none" removes a TTL or a topic (queues:update). */
export function expiryFlags(removable: boolean) {
  const none = removable ? ', or "none" to remove it' : '';
  return {
    'message-ttl': Flags.string({ summary: `Seconds a message lives after its publish (1-1209600)${none}. Default: forever.` }),
    'on-expiry': Flags.string({ summary: 'What an expired message becomes (default dead_letter).', options: [...ON_EXPIRY] }),
    'dead-letter-topic': Flags.string({ summary: `Publish this queue's dead letters to this topic${none}.` }),
    'dead-letter-keep': Flags.boolean({
      summary: "Also keep routed dead letters in this queue's DLQ" + (removable ? ' (--no-dead-letter-keep: only routed).' : '.'),
      allowNo: removable,
    }),
  };
}

/** --message-ttl's value: undefined when not given, null for "none" (where allowed). */
export function parseTtl(raw: string | undefined, removable: boolean): number | null | undefined {
  if (raw === undefined) return undefined;
  if (removable && raw === 'none') return null;
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > 1_209_600) {
    throw new Failure(`--message-ttl must be 1-1209600 seconds${removable ? ' or "none"' : ''}, got ${raw}`, `See the command's --help.`, EXIT.usage);
  }
  return Number(raw);
}

/** --dead-letter-topic's value: undefined when not given, null for "none" (where allowed). */
export const parseDeadLetterTopic = (raw: string | undefined, removable: boolean): string | null | undefined =>
  raw === undefined ? undefined : removable && raw === 'none' ? null : raw;

export const onExpiryOf = (raw: string | undefined): OnExpiry | undefined => raw as OnExpiry | undefined;

/** "60s, then dead_letter" / "none"; "to orders.dead (and kept)" / "none (kept in the DLQ)". */
export function describeExpiry(queue: Queue): { ttl: string; deadLetters: string } {
  return {
    ttl: queue.message_ttl_seconds == null ? 'none' : `${queue.message_ttl_seconds}s, then ${queue.on_expiry ?? 'dead_letter'}`,
    deadLetters: queue.dead_letter_topic ? `to topic ${queue.dead_letter_topic}${queue.dead_letter_keep ? ' (and kept in the DLQ)' : ''}` : 'kept in the DLQ',
  };
}

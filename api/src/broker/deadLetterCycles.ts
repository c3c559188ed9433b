import { ValidationError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import { advisoryLockTakeForTransaction } from '../db/queries/advisoryLock.js';
import { queueDeadLetterRoutes, type DeadLetterRoute } from '../db/queries/queue.js';

/**
 * Cycles of dead-letter topics are refused where the configuration shows them. A queue of topic T
 * whose dead_letter_topic is D makes an edge T → D; a new edge closes a cycle when D already leads
 * back to T. Each death on such a cycle is routed around it again, fanned out to every queue of
 * each topic, so one message grows into ever more copies (messageDeath.ts bounds any that exist).
 */

/** The topics, in order from `topic` back to it, of the cycle that the edge topic → deadLetterTopic would close; null: none. */
export function cycleClosedBy(routes: DeadLetterRoute[], queue: string, topic: string, deadLetterTopic: string): string[] | null {
  const next = new Map<string, string[]>();
  for (const route of routes) {
    // The queue being set is judged by its new edge, not its old one.
    if (route.name === queue) continue;
    next.set(route.topic_name, [...(next.get(route.topic_name) ?? []), route.dead_letter_topic]);
  }
  const seen = new Set<string>();
  const walk = (at: string, path: string[]): string[] | null => {
    if (at === topic) return path;
    if (seen.has(at)) return null;
    seen.add(at);
    for (const to of [...new Set(next.get(at) ?? [])].sort()) {
      const found = walk(to, [...path, to]);
      if (found) return found;
    }
    return null;
  };
  return walk(deadLetterTopic, [topic, deadLetterTopic]);
}

/**
 * Throws 400 if routing `queue`'s dead letters (it is on `topic`) to `deadLetterTopic` would close
 * a cycle. Run in the transaction that then stores the setting: the lock makes every such check
 * and write take turns, so two halves of a cycle set at once cannot both pass.
 */
export async function refuseDeadLetterCycle(tx: Queryable, queue: string, topic: string, deadLetterTopic: string): Promise<void> {
  // The queue's own topic has its own refusal (topology.ts).
  if (deadLetterTopic === topic) return;
  await advisoryLockTakeForTransaction(tx, 'dead-letter-topics');
  const cycle = cycleClosedBy(await queueDeadLetterRoutes(tx), queue, topic, deadLetterTopic);
  if (!cycle) return;
  const named = cycle.join(' → ');
  throw new ValidationError(`Dead letters of ${queue} going to ${deadLetterTopic} would close a cycle of dead-letter topics: ${named}`, [
    { field: 'dead_letter_topic', message: `would close a cycle of dead-letter topics (${named}): each death would be routed round it again` },
  ]);
}

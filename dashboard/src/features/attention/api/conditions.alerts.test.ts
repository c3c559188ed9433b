import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THRESHOLDS } from './conditions';

/**
 * The dashboard's flags and the alert rules ask the same questions with the same numbers: each
 * rule's expression is written here from THRESHOLDS, so changing a number (or a question) on one
 * side without the other fails.
 */
const rules = readFileSync(new URL('../../../../../prometheus/alerts.yml', import.meta.url), 'utf8');

/** The expression of one rule, its whitespace collapsed (the YAML block is folded across lines). */
function expressionOf(alert: string): string {
  const block = rules.split(/^\s*- alert: /m).find((entry) => entry.startsWith(`${alert}\n`));
  if (!block) throw new Error(`no rule ${alert} in prometheus/alerts.yml`);
  const expr = /^\s*expr: \|?\n?([\s\S]*?)^\s*for: /m.exec(block);
  if (!expr) throw new Error(`no expr in ${alert}`);
  return expr[1].replace(/\s+/g, ' ').trim();
}

const { dead, backlog, oldest, unconsumed, push } = THRESHOLDS;
const deadRate = `sum by (queue) (rate(miniqueue_messages_dead_total[${dead.windowMinutes}m]))`;
const oldestAge = 'max by (queue) (miniqueue_oldest_pending_age_seconds)';

const EXPECTED: Record<string, string> = {
  MiniQueueDeadLettersGrowing:
    `${deadRate} * 60 > ${dead.perMinute} and on (queue) ${deadRate} > ${dead.shareOfSettled} * ` +
    `(sum by (queue) (rate(miniqueue_messages_acked_total[${dead.windowMinutes}m])) + ${deadRate})`,
  MiniQueueBacklogGrowing:
    `sum by (queue) (rate(miniqueue_messages_published_total[${backlog.windowMinutes}m])) > ` +
    `sum by (queue) (rate(miniqueue_messages_acked_total[${backlog.windowMinutes}m])) and on (queue) ` +
    `max by (queue) (delta(miniqueue_queue_depth[${backlog.windowMinutes}m])) > 0`,
  MiniQueueOldestPendingTooOld:
    `${oldestAge} > ${oldest.seconds} and on (queue) ${oldestAge} > ` +
    `${oldest.timesUsual} * max by (queue) (avg_over_time(miniqueue_oldest_pending_age_seconds[${oldest.usualOverDays}d]))`,
  MiniQueuePendingWithoutConsumers:
    `max by (queue) (miniqueue_queue_depth) > 0 and on (queue) ${oldestAge} > ${unconsumed.oldestSeconds} ` +
    `and on (queue) max by (queue) (miniqueue_queue_consumers) == 0 ` +
    `and on (queue) sum by (queue) (rate(miniqueue_messages_consumed_total[${unconsumed.deliveredWindowMinutes}m])) == 0`,
  MiniQueuePushFailing: `max by (queue) (miniqueue_push_consecutive_failures) >= ${push.consecutiveFailures}`,
};

describe('the attention flags and the alert rules', () => {
  for (const [alert, expected] of Object.entries(EXPECTED)) {
    it(`${alert} asks what the dashboard asks, with its numbers`, () => {
      expect(expressionOf(alert)).toBe(expected);
    });
  }

  it('reads the broker counts over the rules\u2019 windows (the fields of QueueStats say theirs)', () => {
    const contract = readFileSync(new URL('../../../../../openapi.yaml', import.meta.url), 'utf8');
    const fields = [
      `enqueued_last_${backlog.windowMinutes}_minutes`,
      `acked_last_${backlog.windowMinutes}_minutes`,
      `delivered_last_${unconsumed.deliveredWindowMinutes}_minutes`,
      `dead_last_${dead.windowMinutes}_minutes`,
      `acked_last_${dead.windowMinutes}_minutes`,
    ];
    for (const field of fields) expect(contract).toContain(`\n        ${field}:\n`);
    // oldest_pending_age_day_average_seconds: the broker averages over one day.
    expect(oldest.usualOverDays).toBe(1);
  });
});

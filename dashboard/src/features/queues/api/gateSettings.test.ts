import { describe, expect, it } from 'vitest';
import type { Queue } from '@miniqueue/sdk';
import { formOf, isEdited, settingsChanges } from './settings';

const queue: Queue = {
  name: 'sms',
  topic_name: 'sms',
  ack_timeout_seconds: 30,
  max_retries: 5,
  acked_retention_hours: null,
  require_ordering_key: false,
  created_at: new Date(0),
  single_active_consumer: false,
  max_deliveries_per_second: null,
  max_messages: null,
  max_bytes: null,
  overflow: 'reject_publish',
  message_ttl_seconds: null,
  on_expiry: 'dead_letter',
  dead_letter_topic: null,
  dead_letter_keep: false,
  max_priority: null,
  fairness: 'none',
  max_in_flight_per_key: null,
  attention: { muted: false, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null },
};

describe('the delivery gates in the settings form', () => {
  it('sends only what changed: one consumer at a time, a rate, and null to lift it', () => {
    expect(settingsChanges(queue, formOf(queue)).changes).toEqual({});
    expect(settingsChanges(queue, { ...formOf(queue), singleActiveConsumer: true, maxDeliveriesPerSecond: '200' }).changes).toEqual({
      singleActiveConsumer: true,
      maxDeliveriesPerSecond: 200,
    });
    const limited = { ...queue, max_deliveries_per_second: 200 };
    expect(formOf(limited).maxDeliveriesPerSecond).toBe('200');
    expect(settingsChanges(limited, { ...formOf(limited), maxDeliveriesPerSecond: ' ' }).changes).toEqual({ maxDeliveriesPerSecond: null });
    expect(isEdited(limited, { ...formOf(limited), maxDeliveriesPerSecond: '100' })).toBe(true);
  });

  it('says what is wrong with a rate next to its field', () => {
    expect(settingsChanges(queue, { ...formOf(queue), maxDeliveriesPerSecond: '0' }).problems).toEqual({
      maxDeliveriesPerSecond: 'Between 1 and 100000 a second.',
    });
    expect(settingsChanges(queue, { ...formOf(queue), maxDeliveriesPerSecond: 'fast' }).problems.maxDeliveriesPerSecond).toContain('whole number');
  });
});

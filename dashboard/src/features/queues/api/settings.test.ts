import { describe, expect, it } from 'vitest';
import type { Queue } from '@miniqueue/sdk';
import { BadRequestError } from '@miniqueue/sdk';
import { brokerProblems, formOf, isEdited, settingsChanges } from './settings';
import { boundsSummary } from './boundSettings';

const queue: Queue = {
  name: 'q',
  topic_name: 't',
  ack_timeout_seconds: 30,
  max_retries: 5,
  acked_retention_hours: null,
  require_ordering_key: false,
  created_at: new Date(),
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

describe('queue settings', () => {
  it('sends only what changed', () => {
    expect(settingsChanges(queue, formOf(queue))).toEqual({ changes: {}, problems: {} });
    expect(settingsChanges(queue, { ...formOf(queue), maxRetries: '2', ackedRetentionHours: '24' }).changes).toEqual({
      maxRetries: 2,
      ackedRetentionHours: 24,
    });
  });

  it('turns an emptied retention into the broker default', () => {
    expect(settingsChanges({ ...queue, acked_retention_hours: 12 }, { ...formOf(queue), ackedRetentionHours: ' ' }).changes).toEqual({
      ackedRetentionHours: null,
    });
  });

  it('says which field is out of range before sending anything', () => {
    const { problems } = settingsChanges(queue, { ...formOf(queue), ackTimeoutSeconds: '0', maxRetries: 'many', ackedRetentionHours: '9000', filter: '{' });
    expect(problems).toEqual({
      ackTimeoutSeconds: 'Between 1 and 43200 seconds.',
      maxRetries: 'Enter a whole number of retries.',
      ackedRetentionHours: 'Between 0 and 8760 hours.',
      filter: 'Not valid JSON.',
    });
  });

  it('sends a filter and the key rule only when they changed; an emptied filter removes it', () => {
    const filtered: Queue = { ...queue, filter: { header: 'region', equals: 'eu' }, require_ordering_key: true };
    expect(formOf(filtered).filter).toBe('{\n  "header": "region",\n  "equals": "eu"\n}');
    expect(settingsChanges(filtered, { ...formOf(filtered), filter: '{"header":"region","equals":"eu"}' }).changes).toEqual({});
    expect(settingsChanges(filtered, { ...formOf(filtered), filter: ' ', requireOrderingKey: false }).changes).toEqual({
      filter: null,
      requireOrderingKey: false,
    });
    expect(settingsChanges(queue, { ...formOf(queue), filter: '{"header":"region","exists":true}' }).changes).toEqual({
      filter: { header: 'region', exists: true },
    });
    expect(isEdited(filtered, formOf(filtered))).toBe(false);
    expect(isEdited(filtered, { ...formOf(filtered), requireOrderingKey: false })).toBe(true);
  });

  it("puts the broker's field problems next to their fields", () => {
    const refused = new BadRequestError({
      status: 400,
      message: 'bad',
      errors: [
        { field: 'filter', message: 'filter must be a condition' },
        { field: 'other', message: 'x' },
      ],
    });
    expect(brokerProblems(refused)).toEqual({ filter: 'filter must be a condition' });
    expect(brokerProblems(new Error('offline'))).toEqual({});
  });
});

const bounded: Queue = { ...queue, max_messages: 100, max_bytes: 2048, overflow: 'dead_letter_oldest' };

describe('queue bounds in the settings form', () => {
  it('sends only the bounds that changed; an emptied bound is null (no bound)', () => {
    expect(settingsChanges(bounded, formOf(bounded))).toEqual({ changes: {}, problems: {} });
    expect(settingsChanges(queue, { ...formOf(queue), maxMessages: '10', overflow: 'drop_oldest' }).changes).toEqual({
      maxMessages: 10,
      overflow: 'drop_oldest',
    });
    expect(settingsChanges(bounded, { ...formOf(bounded), maxBytes: ' ' }).changes).toEqual({ maxBytes: null });
    expect(isEdited(bounded, { ...formOf(bounded), overflow: 'reject_publish' })).toBe(true);
  });

  it('explains a bound that is not a whole number from 1', () => {
    expect(settingsChanges(queue, { ...formOf(queue), maxMessages: '0', maxBytes: '1.5' }).problems).toEqual({
      maxMessages: 'Between 1 and 1000000000, or empty for no bound.',
      maxBytes: 'Enter a whole number, or leave empty for no bound.',
    });
  });

  it('summarises the bounds for people who only read them', () => {
    expect(boundsSummary(queue)).toBe('none (the queue grows without bound)');
    expect(boundsSummary(bounded)).toBe('100 messages, 2048 payload bytes; when full: dead-letter the oldest pending messages');
  });
});

describe('expiry and dead-letter settings', () => {
  it('send only what changed; empty removes a TTL or a topic', () => {
    expect(
      settingsChanges(queue, { ...formOf(queue), messageTtlSeconds: '60', onExpiry: 'drop', deadLetterTopic: 'Q.Dead', deadLetterKeep: true }).changes,
    ).toEqual({
      messageTtlSeconds: 60,
      onExpiry: 'drop',
      deadLetterTopic: 'q.dead',
      deadLetterKeep: true,
    });
    const set: Queue = { ...queue, message_ttl_seconds: 60, dead_letter_topic: 'q.dead' };
    expect(settingsChanges(set, formOf(set)).changes).toEqual({});
    expect(settingsChanges(set, { ...formOf(set), messageTtlSeconds: ' ', deadLetterTopic: '' }).changes).toEqual({
      messageTtlSeconds: null,
      deadLetterTopic: null,
    });
  });

  it("say what is wrong with a TTL or the queue's own topic before sending", () => {
    const { problems } = settingsChanges(queue, { ...formOf(queue), messageTtlSeconds: '0', deadLetterTopic: 't' });
    expect(problems).toEqual({
      messageTtlSeconds: 'Between 1 and 1209600 seconds, or empty for no expiry.',
      deadLetterTopic: "Not the queue's own topic: its dead letters would come back to it.",
    });
  });
});

const fair: Queue = { ...queue, fairness: 'by_key', max_in_flight_per_key: 2 };

describe('fair sharing in the settings form', () => {
  it('sends the per-key limit only when it changed; emptied, it is null (no limit)', () => {
    expect(settingsChanges(fair, formOf(fair))).toEqual({ changes: {}, problems: {} });
    expect(isEdited(fair, { ...formOf(fair), maxInFlightPerKey: '2 ' })).toBe(false);
    expect(settingsChanges(fair, { ...formOf(fair), maxInFlightPerKey: '5' }).changes).toEqual({ maxInFlightPerKey: 5 });
    expect(settingsChanges(fair, { ...formOf(fair), maxInFlightPerKey: '' }).changes).toEqual({ maxInFlightPerKey: null });
  });

  it("says what is wrong with a limit before sending, and puts the broker's next to it", () => {
    expect(settingsChanges(fair, { ...formOf(fair), maxInFlightPerKey: '0' }).problems).toEqual({
      maxInFlightPerKey: 'Between 1 and 10000, or empty for no limit.',
    });
    const refused = new BadRequestError({ status: 400, message: 'bad', errors: [{ field: 'max_in_flight_per_key', message: 'only with fairness by_key' }] });
    expect(brokerProblems(refused)).toEqual({ maxInFlightPerKey: 'only with fairness by_key' });
  });
});

describe('attention settings in the settings form', () => {
  it('sends them as a whole when any changed; an emptied threshold is null (the default); a bad one says why', () => {
    expect(settingsChanges(queue, formOf(queue)).changes).toEqual({});
    expect(isEdited(queue, { ...formOf(queue), attentionMuted: true })).toBe(true);
    expect(settingsChanges(queue, { ...formOf(queue), attentionMuted: true }).changes).toEqual({
      attention: { muted: true, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null },
    });
    const own: Queue = { ...queue, attention: { muted: false, oldest_pending_seconds: 7200, backlog_growth: 50, dead_per_minute: null } };
    expect(settingsChanges(own, { ...formOf(own), attentionDeadPerMinute: '0.5' }).changes).toEqual({
      attention: { muted: false, oldest_pending_seconds: 7200, backlog_growth: 50, dead_per_minute: 0.5 },
    });
    expect(settingsChanges(own, { ...formOf(own), attentionOldestPendingSeconds: ' ' }).changes).toEqual({
      attention: { muted: false, oldest_pending_seconds: null, backlog_growth: 50, dead_per_minute: null },
    });
    const bad = settingsChanges(own, { ...formOf(own), attentionOldestPendingSeconds: '0', attentionDeadPerMinute: 'lots' });
    expect(bad.changes).toEqual({});
    expect(bad.problems).toEqual({
      attentionOldestPendingSeconds: 'Between 1 and 2592000 seconds, or empty for the default (300).',
      attentionDeadPerMinute: 'A number from 0 to 1000000, or empty for the default (1).',
    });
    const refused = new BadRequestError({ status: 400, message: 'bad', errors: [{ field: 'attention.backlog_growth', message: 'must be at least 0' }] });
    expect(brokerProblems(refused)).toEqual({ attentionBacklogGrowth: 'must be at least 0' });
  });
});

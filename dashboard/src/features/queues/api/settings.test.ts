import { describe, expect, it } from 'vitest';
import type { Queue } from '@miniqueue/sdk';
import { BadRequestError } from '@miniqueue/sdk';
import { brokerProblems, formOf, isEdited, settingsChanges } from './settings';

const queue: Queue = { name: 'q', topic_name: 't', ack_timeout_seconds: 30, max_retries: 5, acked_retention_hours: null, require_ordering_key: false, created_at: new Date() };

describe('queue settings', () => {
  it('sends only what changed', () => {
    expect(settingsChanges(queue, formOf(queue))).toEqual({ changes: {}, problems: {} });
    expect(settingsChanges(queue, { ...formOf(queue), maxRetries: '2', ackedRetentionHours: '24' }).changes).toEqual({ maxRetries: 2, ackedRetentionHours: 24 });
  });

  it('turns an emptied retention into the broker default', () => {
    expect(settingsChanges({ ...queue, acked_retention_hours: 12 }, { ...formOf(queue), ackedRetentionHours: ' ' }).changes).toEqual({ ackedRetentionHours: null });
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
    expect(settingsChanges(filtered, { ...formOf(filtered), filter: ' ', requireOrderingKey: false }).changes).toEqual({ filter: null, requireOrderingKey: false });
    expect(settingsChanges(queue, { ...formOf(queue), filter: '{"header":"region","exists":true}' }).changes).toEqual({ filter: { header: 'region', exists: true } });
    expect(isEdited(filtered, formOf(filtered))).toBe(false);
    expect(isEdited(filtered, { ...formOf(filtered), requireOrderingKey: false })).toBe(true);
  });

  it("puts the broker's field problems next to their fields", () => {
    const refused = new BadRequestError({ status: 400, message: 'bad', errors: [{ field: 'filter', message: 'filter must be a condition' }, { field: 'other', message: 'x' }] });
    expect(brokerProblems(refused)).toEqual({ filter: 'filter must be a condition' });
    expect(brokerProblems(new Error('offline'))).toEqual({});
  });
});

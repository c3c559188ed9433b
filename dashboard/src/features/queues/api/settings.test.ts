import { describe, expect, it } from 'vitest';
import type { Queue } from '@miniqueue/sdk';
import { formOf, settingsChanges } from './settings';

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
    const { problems } = settingsChanges(queue, { ackTimeoutSeconds: '0', maxRetries: 'many', ackedRetentionHours: '9000' });
    expect(problems).toEqual({
      ackTimeoutSeconds: 'Between 1 and 43200 seconds.',
      maxRetries: 'Enter a whole number of retries.',
      ackedRetentionHours: 'Between 0 and 8760 hours.',
    });
  });
});

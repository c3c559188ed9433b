import { describe, expect, it } from 'vitest';
import type { ClientFrame } from '../../src/stream/frames.js';
import { Subscriptions } from '../../src/stream/subscription.js';

const handlers = () => ({ deliver: () => undefined, ended: () => undefined });

describe('subscriptions across a resume', () => {
  it('a subscribe sent again on a resumed stream that had it already is refused (sub in use) and taken as subscribed', async () => {
    const sent: ClientFrame[] = [];
    const subscriptions = new Subscriptions((frame) => sent.push(frame) > 0);
    const subscribing = subscriptions.subscribe('q', 5, handlers());
    // The stream broke before `subscribed` arrived; the resumed stream had the subscribe already.
    subscriptions.reopened(true);
    expect(sent).toEqual([
      { type: 'subscribe', sub: 's1', queue: 'q', prefetch: 5 },
      { type: 'subscribe', sub: 's1', queue: 'q', prefetch: 5 },
    ]);
    subscriptions.answer({
      type: 'error',
      sub: 's1',
      status: 400,
      code: 'validation_failed',
      message: 's1 is already in use on this stream',
      errors: [{ field: 'sub', message: 'is already in use on this stream for a subscription to q' }],
    });
    await expect(subscribing).resolves.toMatchObject({ queue: 'q' });
    expect(subscriptions.size).toBe(1);
  });

  it('the same refusal on a new stream (nothing resent) ends the subscribe with the error', async () => {
    const subscriptions = new Subscriptions(() => true);
    const subscribing = subscriptions.subscribe('q', 5, handlers());
    subscriptions.answer({
      type: 'error',
      sub: 's1',
      status: 400,
      code: 'validation_failed',
      message: 'in use',
      errors: [{ field: 'sub', message: 'in use' }],
    });
    await expect(subscribing).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
    expect(subscriptions.size).toBe(0);
  });
});

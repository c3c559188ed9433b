import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../src/index.js';
import type { ClientFrame } from '../../src/stream/frames.js';
import { Watches } from '../../src/stream/watches.js';
import type { MonitorEvent } from '../../src/monitor/events.js';

const event: MonitorEvent = { eventType: 'PUBLISHED', queueName: 'q', detail: 'Message 1 published to q', count: 1, timestamp: '2026-01-01T00:00:00Z' };

describe('watches of the live feed on a stream', () => {
  it('watches again on a new stream, not on a resumed one, and ends on the broker’s word', async () => {
    const sent: ClientFrame[] = [];
    const watches = new Watches((frame) => sent.push(frame) > 0);
    const seen: MonitorEvent[] = [];
    const ended: unknown[] = [];
    let opened = 0;
    const started = watches.watch('q', { event: (e) => seen.push(e), ended: (error) => ended.push(error), watching: () => opened++ });
    expect(sent).toEqual([{ type: 'watch', sub: 'w1', queue: 'q' }]);
    expect(watches.answer({ type: 'watching', sub: 'w1', queue: 'q' })).toBe(true);
    await started;
    expect(watches.answer({ type: 'event', sub: 'w1', event })).toBe(true);
    expect(seen).toEqual([event]);

    watches.reopened(true);
    expect(sent).toHaveLength(1);
    expect(opened).toBe(2);
    watches.reopened(false);
    expect(sent.at(-1)).toEqual({ type: 'watch', sub: 'w1', queue: 'q' });

    // Frames for a subscription are not a watch's.
    expect(watches.answer({ type: 'subscription_ended', sub: 's1', status: 404, code: 'queue_not_found' })).toBe(false);
    watches.answer({
      type: 'subscription_ended',
      sub: 'w1',
      status: 403,
      code: 'scope_required',
      message: 'This needs the scope view (or admin)',
      scope: 'view',
    });
    expect(ended[0]).toBeInstanceOf(ForbiddenError);
    expect(watches.size).toBe(0);
  });

  it('rejects a refused watch with the typed error, and an unwatch on a closed stream is done at once', async () => {
    const sent: ClientFrame[] = [];
    let open = true;
    const watches = new Watches((frame) => open && sent.push(frame) > 0);
    const refused = watches.watch(undefined, { event: () => undefined, ended: () => undefined });
    expect(sent).toEqual([{ type: 'watch', sub: 'w1' }]);
    watches.answer({ type: 'error', sub: 'w1', status: 403, code: 'scope_required', message: 'no', scope: 'view' });
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);

    const started = watches.watch(undefined, { event: () => undefined, ended: () => undefined });
    watches.answer({ type: 'watching', sub: 'w2' });
    const watch = await started;
    open = false;
    await watch.unwatch();
    expect(watches.size).toBe(0);
  });
});

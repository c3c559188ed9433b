import { describe, expect, it } from 'vitest';
import { ConflictError, ErrorCode, replayInfo, type MiniQueue } from '../../src/index.js';
import { brokerForFile } from '../helpers/broker.js';

let admin: MiniQueue;
brokerForFile((started) => (admin = started.admin));

describe('history.replay', () => {
  it('replays acked messages as new ones, and replayInfo reads what they say of their original', async () => {
    await admin.topics.create('seek');
    await admin.queues.create('seek-q', 'seek');
    const since = new Date(Date.now() - 1000);
    const [published] = (await admin.publish('seek', 'one')).message_ids;
    const claimed = await admin.consume('seek-q');
    await admin.ack(claimed!.message_id);
    expect(replayInfo(claimed!)).toBeNull();

    expect(await admin.history.replay('seek-q', { since, dryRun: true })).toMatchObject({ messages: 1, dry_run: true, replay_id: null });
    const done = await admin.history.replay('seek-q', { since, idempotencyKey: 'seek-1' });
    expect(done).toMatchObject({ messages: 1, dry_run: false, since: expect.any(Date), until: expect.any(Date) });
    // The same key again: the same replay, nothing copied twice.
    expect(await admin.history.replay('seek-q', { since, idempotencyKey: 'seek-1' })).toEqual(done);

    const copy = await admin.consume('seek-q');
    expect(copy!.message_id).not.toBe(published);
    expect(replayInfo(copy!)).toEqual({ originalId: published, originalPublishedAt: claimed!.published_at, replayId: done.replay_id, redelivered: true });
    expect(await admin.consume('seek-q')).toBeNull();
  });

  it('a start earlier than the history is a ConflictError with its code', async () => {
    const error = await admin.history.replay('seek-q', { since: new Date(Date.now() - 48 * 3600_000) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe(ErrorCode.HistoryNotRetained);
  });
});

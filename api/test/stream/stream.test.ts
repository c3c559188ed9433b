import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { openStream, publishFrame, type TestStream } from './support.js';

let mq: TestBroker;
let publisherKey: string;
let consumerKey: string;
const streams: TestStream[] = [];

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_STREAM_RESUME_GRACE_MS: '300' } });
  await topology(mq, 'orders', [{ name: 'billing' }, { name: 'shipping' }]);
  await topology(mq, 'jobs', [{ name: 'work', ack_timeout_seconds: 60 }]);
  await topology(mq, 'tasks', [{ name: 'tasks', ack_timeout_seconds: 60 }]);
  publisherKey = await mq.clientKey('producer', ['publish:orders', 'publish:jobs', 'publish:nowhere']);
  consumerKey = await mq.clientKey('worker', ['consume:work', 'consume:tasks', 'publish:tasks']);
});
afterAll(async () => {
  for (const stream of streams) stream.ws.terminate();
  await mq.stop();
});

async function stream(key: string, query?: string): Promise<TestStream> {
  const opened = await openStream(mq, { key, query });
  streams.push(opened);
  return opened;
}

/** The queue's maintained counts beside its rows: the release must keep them equal. */
async function countsOf(queue: string): Promise<{ counted: string; actual: string }> {
  const { rows } = await mq.pool.query(
    `SELECT (SELECT row(sum(pending), sum(unacked))::text FROM queue_counter WHERE queue_name = $1) AS counted,
            (SELECT row(count(*) FILTER (WHERE status IN ('PENDING', 'BLOCKED')), count(*) FILTER (WHERE status = 'UNACKED'))::text
               FROM message WHERE queue_name = $1) AS actual`,
    [queue],
  );
  return rows[0];
}

const pendingIn = async (queue: string) =>
  Number((await mq.pool.query(`SELECT count(*) FROM message WHERE queue_name = $1 AND status = 'PENDING'`, [queue])).rows[0].count);

describe('/ws/v1/stream: publishing', () => {
  it('welcomes with the stream id, a resume token and its limits', async () => {
    const s = await stream(publisherKey);
    expect(s.welcome).toMatchObject({ type: 'welcome', resumed: false, limits: { max_unconfirmed: 1000, max_prefetch: 1000 } });
    expect(s.welcome.resume_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('confirms a publish after its rows are committed, with the ids and queues HTTP gives', async () => {
    const s = await stream(publisherKey);
    s.send(publishFrame(1, 'orders', 'hello', { headers: { kind: 'greeting' } }));
    const confirm = await s.next((frame) => frame.type === 'confirm' && frame.seq === 1);
    expect(confirm).toMatchObject({ queues: ['billing', 'shipping'], duplicate: false });
    expect(confirm.message_ids).toHaveLength(2);
    for (const id of confirm.message_ids) expect((await statusOf(mq, id))?.status).toBe('PENDING');
  });

  it('pipelines: 500 publishes in flight at once are each stored once, in a few statements', async () => {
    const s = await stream(publisherKey);
    const before = { ...mq.broker.context.publisher.groupCommitStats };
    s.send(Array.from({ length: 500 }, (_, i) => publishFrame(i + 1, 'jobs', `job-${i}`)));
    const confirms = await s.collect((frame) => frame.type === 'confirm', 500);
    expect(new Set(confirms.map((frame) => frame.seq)).size).toBe(500);
    const { rows } = await mq.pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT payload)::int AS d FROM message WHERE queue_name = 'work' AND payload LIKE 'job-%'`,
    );
    expect(rows[0]).toEqual({ n: 500, d: 500 });
    const statements = mq.broker.context.publisher.groupCommitStats.batches - before.batches;
    expect(statements).toBeLessThan(50);
    await mq.pool.query(`DELETE FROM message WHERE queue_name = 'work'`);
  });

  it('rejects with the error HTTP would give, naming the seq, and stores nothing', async () => {
    const s = await stream(publisherKey);
    s.send([
      publishFrame(1, 'nowhere'),
      publishFrame(2, 'tasks'),
      publishFrame(3, 'orders', 'x'.repeat(300_000)),
      { type: 'publish', seq: 4, topic: 'orders', payload: 5 },
    ]);
    const rejects = await s.collect((frame) => frame.type === 'reject', 4);
    const bySeq = Object.fromEntries(rejects.map((frame) => [frame.seq, frame]));
    expect(bySeq[1]).toMatchObject({ status: 404, code: 'topic_not_found' });
    expect(bySeq[2]).toMatchObject({ status: 403, code: 'scope_required', scope: 'publish:tasks' });
    expect(bySeq[3]).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(bySeq[4]).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'payload' }] });
  });

  it('answers a frame it cannot read with an error in the contract shape', async () => {
    const s = await stream(publisherKey);
    s.ws.send('not json');
    s.send({ type: 'teleport', ref: 3 });
    s.send([]);
    const errors = await s.collect((frame) => frame.type === 'error', 3);
    expect(errors.map((frame) => frame.code)).toEqual(['validation_failed', 'validation_failed', 'validation_failed']);
    expect(errors[1]).toMatchObject({ ref: 3, errors: [{ field: 'type' }] });
  });

  it('closes a stream that keeps sending refused frames with 4400', async () => {
    const s = await stream(publisherKey);
    for (let i = 0; i < 25; i += 1) s.send({ type: 'nonsense' });
    expect((await s.closed).code).toBe(4400);
  });

  it('refuses a handshake without the subprotocol', async () => {
    await expect(openStream(mq, { key: publisherKey, protocols: [] })).rejects.toMatchObject({ status: 400 });
  });
});

describe('/ws/v1/stream: subscribing', () => {
  it('delivers up to the prefetch window and more only as acks free room', async () => {
    for (let i = 0; i < 6; i += 1) await publishOne(mq, 'tasks', `t${i}`);
    const s = await stream(consumerKey);
    s.send({ type: 'subscribe', sub: 'a', queue: 'tasks', prefetch: 2 });
    await s.next((frame) => frame.type === 'subscribed' && frame.sub === 'a');
    const first = await s.collect((frame) => frame.type === 'deliver', 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(s.frames.filter((frame) => frame.type === 'deliver')).toHaveLength(2);
    s.send({ type: 'ack', ids: [first[0].message.message_id], ref: 1 });
    expect(await s.next((frame) => frame.type === 'acked' && frame.ref === 1)).toMatchObject({ acked: [first[0].message.message_id], failed: [] });
    await s.collect((frame) => frame.type === 'deliver', 3);
    s.send({ type: 'credit', sub: 'a', prefetch: 10 });
    const all = await s.collect((frame) => frame.type === 'deliver', 6);
    expect(new Set(all.map((frame) => frame.message.message_id)).size).toBe(6);
    // The first was acked already, by this same holder: acked again, as HTTP answers a repeated ack.
    s.send({ type: 'ack', ids: all.map((frame) => frame.message.message_id), ref: 2 });
    expect(await s.next((frame) => frame.type === 'acked' && frame.ref === 2)).toMatchObject({ failed: [] });
    expect(await pendingIn('tasks')).toBe(0);
    await s.close();
  });

  it('delivers a message published after it subscribed, and nacks and extends by frame', async () => {
    const s = await stream(consumerKey);
    s.send({ type: 'subscribe', sub: 'w', queue: 'tasks', prefetch: 5 });
    await s.next((frame) => frame.type === 'subscribed');
    s.send(publishFrame(1, 'tasks', 'later'));
    const delivered = await s.next((frame) => frame.type === 'deliver' && frame.message.payload === 'later');
    const id = delivered.message.message_id;
    s.send({ type: 'extend', id, seconds: 120, ref: 7 });
    expect(await s.next((frame) => frame.type === 'extended' && frame.ref === 7)).toMatchObject({ message_id: id });
    s.send({ type: 'nack', id, requeue: true, ref: 8 });
    expect(await s.next((frame) => frame.type === 'nacked' && frame.ref === 8)).toMatchObject({ message_id: id, status: 'PENDING' });
    const again = await s.next((frame) => frame.type === 'deliver' && frame.message.message_id === id && frame.message.retry_count === 1);
    s.send({ type: 'ack', ids: [again.message.message_id] });
    await eventually(async () => (await statusOf(mq, id))?.status === 'ACKED', 'acked');
    await s.close();
  });

  it('refuses a subscribe whose sub is in use, for the same queue or another, and keeps the first as it was', async () => {
    const s = await stream(consumerKey);
    s.send({ type: 'subscribe', sub: 'same', queue: 'tasks', prefetch: 1 });
    await s.next((frame) => frame.type === 'subscribed');
    s.send([
      { type: 'subscribe', sub: 'same', queue: 'tasks', prefetch: 3 },
      { type: 'subscribe', sub: 'same', queue: 'work', prefetch: 3 },
    ]);
    const refused = await s.collect((frame) => frame.type === 'error' && frame.sub === 'same', 2);
    for (const error of refused) expect(error).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'sub' }] });
    expect(s.frames.filter((frame) => frame.type === 'subscribed')).toEqual([{ type: 'subscribed', sub: 'same', queue: 'tasks', prefetch: 1 }]);
    await s.close();
  });

  it('refuses a subscription its credential may not consume, and one to an unknown queue', async () => {
    const s = await stream(consumerKey);
    s.send([{ type: 'subscribe', sub: 'x', queue: 'billing', prefetch: 1 }]);
    expect(await s.next((frame) => frame.type === 'error' && frame.sub === 'x')).toMatchObject({ status: 403, scope: 'consume:billing' });
    const admin = await stream(mq.adminKey);
    admin.send({ type: 'subscribe', sub: 'y', queue: 'ghost', prefetch: 1 });
    expect(await admin.next((frame) => frame.type === 'error' && frame.sub === 'y')).toMatchObject({ status: 404, code: 'queue_not_found' });
  });

  it('gives back what a closed stream held, after the resume grace, retry count unchanged', async () => {
    const ids = [await publishOne(mq, 'tasks', 'held-1'), await publishOne(mq, 'tasks', 'held-2')].flat();
    const s = await stream(consumerKey);
    s.send({ type: 'subscribe', sub: 'a', queue: 'tasks', prefetch: 5 });
    await s.collect((frame) => frame.type === 'deliver', 2);
    for (const id of ids) expect((await statusOf(mq, id))?.status).toBe('UNACKED');
    s.ws.terminate();
    await eventually(async () => (await pendingIn('tasks')) === 2, 'released', 5000);
    for (const id of ids) expect((await statusOf(mq, id))?.retry_count).toBe(0);
    const counts = await countsOf('tasks');
    expect(counts.counted).toBe(counts.actual);
    const other = await stream(consumerKey, 'instance=second');
    other.send({ type: 'subscribe', sub: 'b', queue: 'tasks', prefetch: 5 });
    const again = await other.collect((frame) => frame.type === 'deliver', 2);
    other.send({ type: 'ack', ids: again.map((frame) => frame.message.message_id), ref: 1 });
    expect((await other.next((frame) => frame.type === 'acked')).acked).toHaveLength(2);
    await other.close();
  });

  it('resumes within the grace: what it held stays held and is sent again; a resent publish is not stored twice', async () => {
    const [id] = await publishOne(mq, 'tasks', 'resume-me');
    const s = await stream(consumerKey);
    s.send({ type: 'subscribe', sub: 'a', queue: 'tasks', prefetch: 1 });
    await s.next((frame) => frame.type === 'deliver' && frame.message.message_id === id);
    s.send(publishFrame(41, 'tasks', 'once'));
    await s.next((frame) => frame.type === 'confirm' && frame.seq === 41);
    s.ws.terminate();
    const resumed = await stream(consumerKey, `resume=${s.welcome.resume_token}`);
    expect(resumed.welcome).toMatchObject({ resumed: true, stream_id: s.welcome.stream_id });
    const again = await resumed.next((frame) => frame.type === 'deliver' && frame.message.message_id === id);
    expect(again.resent).toBe(true);
    resumed.send(publishFrame(41, 'tasks', 'once'));
    const confirm = await resumed.next((frame) => frame.type === 'confirm' && frame.seq === 41);
    expect(confirm.duplicate).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await statusOf(mq, id))?.status).toBe('UNACKED');
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE payload = 'once'`);
    expect(rows[0].n).toBe(1);
    resumed.send({ type: 'ack', ids: [id], ref: 1 });
    expect((await resumed.next((frame) => frame.type === 'acked')).acked).toEqual([id]);
    await resumed.close();
  });
});

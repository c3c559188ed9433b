import { describe, expect, it } from 'vitest';
import { BadRequestError, ErrorCode, type MiniQueue } from '../../src/index.js';
import { brokerForFile } from '../helpers/broker.js';

let admin: MiniQueue;
brokerForFile((started) => {
  admin = started.admin;
});

describe('ordering keys and header filters through the SDK', () => {
  it('creates queues with a filter and a required key, and changes them', async () => {
    await admin.topics.create('sdk.orders');
    const eu = await admin.queues.create('sdk-eu', 'sdk.orders', {
      filter: { and: [{ header: 'region', one_of: ['eu'] }, { not: { header: 'test', exists: true } }] },
    });
    expect(eu.filter).toEqual({ and: [{ header: 'region', one_of: ['eu'] }, { not: { header: 'test', exists: true } }] });
    expect(eu.require_ordering_key).toBe(false);
    const ledger = await admin.queues.create('sdk-ledger', 'sdk.orders', { requireOrderingKey: true, filter: { header: 'kind', prefix: 'pay' } });
    expect(ledger).toMatchObject({ require_ordering_key: true, filter: { header: 'kind', prefix: 'pay' } });
    expect((await admin.queues.get('sdk-eu')).filter).toEqual(eu.filter);
    const listed = await admin.queues.list();
    expect(listed.find((q) => q.name === 'sdk-ledger')?.filter).toEqual({ header: 'kind', prefix: 'pay' });

    const bad = await admin.queues.create('sdk-bad', 'sdk.orders', { filter: { and: [] } as never }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect((bad as BadRequestError).message).toContain('filter.and must be a list of 1 to 10 filters');

    const changed = await admin.queues.update('sdk-eu', { filter: { header: 'region', equals: 'us' } });
    expect(changed.filter).toEqual({ header: 'region', equals: 'us' });
    expect((await admin.queues.update('sdk-eu', { filter: null })).filter).toBeUndefined();
  });

  it('publishes with an ordering key; the queues that took it are answered; a missing key is refused', async () => {
    const one = await admin.publish('sdk.orders', 'paid', { headers: { kind: 'payment' }, orderingKey: 'order-1' });
    expect(one.queues).toEqual(['sdk-eu', 'sdk-ledger']);
    const refused = await admin.publish('sdk.orders', 'no key', { headers: { kind: 'payment' } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).code).toBe(ErrorCode.OrderingKeyRequired);
    // Not for the ledger (its filter does not match), so no key is needed.
    expect((await admin.publish('sdk.orders', 'note', { headers: { kind: 'note' } })).queues).toEqual(['sdk-eu']);

    await admin.publishBatch('sdk.orders', [
      { payload: 'refunded', headers: { kind: 'payment' }, orderingKey: 'order-1' },
      { payload: 'other', headers: { kind: 'payment' }, orderingKey: 'order-2' },
    ]);
    const first = await admin.consume('sdk-ledger');
    expect(first).toMatchObject({ payload: 'paid', ordering_key: 'order-1' });
    const second = await admin.consume('sdk-ledger');
    expect(second).toMatchObject({ payload: 'other', ordering_key: 'order-2' });
    expect(await admin.consume('sdk-ledger')).toBeNull();
    await admin.ack(first!.message_id);
    expect(await admin.consume('sdk-ledger')).toMatchObject({ payload: 'refunded', ordering_key: 'order-1' });
  });
});

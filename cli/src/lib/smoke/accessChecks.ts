import { ensure, refused, step } from './expect.js';
import { CheckFailed, type Check } from './types.js';

/** Looks like a key, so the broker refuses it as a wrong key rather than a malformed header. */
const BAD_KEY = `mq_${'0'.repeat(43)}`;

export const auth: Check = {
  name: 'auth',
  async run(context) {
    const me = await step('GET /api/v1/auth/me with the key', () => context.admin.auth.me());
    await refused('a wrong key', 401, () => context.as(BAD_KEY).topics.list());
    await refused('no key', 401, () => context.as().topics.list());
    return `the key (${me.name}) is accepted; a wrong key and no key are 401`;
  },
};

export const scopes: Check = {
  name: 'scopes',
  async run(context) {
    const { topic, queue } = await context.topicWithQueue('scopes');
    const { topic: other } = await context.topicWithQueue('scopes-other');
    const { key } = await context.clientWith('publisher', [`publish:${topic}`]);
    const publisher = context.as(key);
    await step(`publishing to ${topic} with publish:${topic}`, () => publisher.publish(topic, 'smoke'));
    await refused(`publishing to ${other} with publish:${topic}`, 403, () => publisher.publish(other, 'smoke'));
    await refused('consuming with a publish-only key', 403, () => publisher.consume(queue));
    await refused('listing clients with a publish-only key', 403, () => publisher.clients.list());
    return `a publish:${topic} key publishes there and is 403 elsewhere`;
  },
};

export const revocation: Check = {
  name: 'revocation',
  async run(context) {
    const { name, key } = await context.clientWith('revoked', ['view']);
    const client = context.as(key);
    await step('the new key before revoking it', () => client.topics.list());
    await step(`revoking ${name}`, () => context.admin.clients.delete(name));
    const took = await refusedWithin(REVOCATION_GRACE_MS, () => client.topics.list());
    return `a revoked key is 401 (after ${took} ms)`;
  },
};

/**
 * Brokers cache keys and drop them when PostgreSQL tells every instance (LISTEN/NOTIFY) that a
 * client changed, so a revoked key may be honoured for the moment that notice takes. A key still
 * working after this long is a broken revocation.
 */
const REVOCATION_GRACE_MS = 5_000;

/** Milliseconds until `call` is refused with 401; fails the check if it still works after `graceMs`. */
async function refusedWithin(graceMs: number, call: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  for (;;) {
    const status = await call().then(
      () => 200,
      (error: { status?: number }) => error.status ?? 0,
    );
    const elapsed = Date.now() - started;
    if (status === 401) return elapsed;
    if (status !== 200) throw new CheckFailed(`the revoked key: expected 401, got ${status === 0 ? 'no answer' : status}`);
    if (elapsed > graceMs) throw new CheckFailed(`the revoked key still works ${Math.round(elapsed / 1000)} s after revoking it`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const metrics: Check = {
  name: 'metrics',
  async run(context) {
    const scraper = context.as((await context.clientWith('metrics', ['metrics'])).key);
    const text = await step('GET /actuator/prometheus with a metrics key', () => scraper.ops.metrics());
    ensure(text.includes('miniqueue_'), 'GET /actuator/prometheus has no miniqueue_ series');
    await refused('listing topics with a metrics key', 403, () => scraper.topics.list());
    await refused('the dashboard numbers with a metrics key', 403, () => scraper.dashboard.overview());
    const viewer = context.as((await context.clientWith('viewer', ['view'])).key);
    await refused('GET /actuator/prometheus with a view key', 403, () => viewer.ops.metrics());
    return 'a metrics key reads /actuator/prometheus and nothing else; a view key cannot scrape';
  },
};

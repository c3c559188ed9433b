import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ErrorCode } from '@miniqueue/sdk';
import { describe, expect, it } from 'vitest';
import { describeBrokerError, type BrokerError } from '../../src/lib/brokerErrors.js';
import type { Connection } from '../../src/lib/connection.js';
import { EXIT } from '../../src/lib/failure.js';

const connection: Connection = { url: 'http://localhost:8080', apiKey: 'mq_x', profile: 'prod', keySource: 'profile' };

function brokerError(status: number, message: string, extra: Partial<BrokerError> = {}): BrokerError {
  return Object.assign(new Error(message), { status, ...extra });
}

const describeIt = (error: BrokerError, principal: { name: string; scopes: string[] } | null = null) =>
  describeBrokerError(error, { connection, command: 'queues:create', principal: async () => principal });

describe('describeBrokerError', () => {
  it('401 says how to log in again, by where the key came from', async () => {
    const failure = await describeIt(brokerError(401, 'Invalid, expired or revoked credential'));
    expect(failure.exitCode).toBe(EXIT.auth);
    expect(failure.hint).toContain('`miniqueue login --profile prod`');
  });

  it('403 names the missing scope the broker named, and what the key has', async () => {
    const failure = await describeIt(brokerError(403, 'Reworded: any English at all', { code: 'scope_required', scope: 'publish:orders' }), {
      name: 'shop',
      scopes: ['view'],
    });
    expect(failure.exitCode).toBe(EXIT.auth);
    expect(failure.hint).toBe(
      'Your key (shop) has: view. Use a key with the scope publish:orders (--api-key, or `miniqueue login`); an admin registers one with `miniqueue clients:create NAME --scope publish:orders`.',
    );
  });

  it('403 still helps when who the key is cannot be found out', async () => {
    const failure = await describeBrokerError(brokerError(403, 'Your credential does not allow this'), {
      connection,
      principal: async () => {
        throw new Error('down');
      },
    });
    expect(failure.hint).toMatch(/^Use a key with the right scope/);
  });

  it('409 has a hint too, by the code of the conflict', async () => {
    const cases: Array<[string | undefined, RegExp]> = [
      ['client_exists', /`miniqueue clients:rotate NAME`/],
      ['queue_exists', /`miniqueue queues:list` shows the existing ones/],
      ['topic_has_queues', /`miniqueue queues:delete`/],
      ['idempotency_conflict', /new --idempotency-key/],
      ['message_not_dead', /`miniqueue dlq:list`/],
      ['lease_lost', /Only the consumer holding a message/],
      ['message_not_unacked', /Only a claimed \(UNACKED\) message/],
      ['a_code_from_a_newer_broker', /look at it again/],
      [undefined, /look at it again/],
    ];
    for (const [code, hint] of cases) {
      const failure = await describeIt(brokerError(409, 'Reworded', { code }));
      expect(failure.exitCode, code).toBe(EXIT.conflict);
      expect(failure.hint, code).toMatch(hint);
    }
  });

  it('404 says where to look, by the code of what was not found', async () => {
    expect((await describeIt(brokerError(404, 'Reworded', { code: 'queue_not_found' }))).hint).toMatch(/^`miniqueue queues:list` shows the queues/);
    expect((await describeIt(brokerError(404, 'No queue found with the name q', { code: 'route_not_found' }))).hint).toMatch(/Check --url/);
    expect((await describeIt(brokerError(404, 'No topic found with the name t', { code: 'topic_not_found' }))).exitCode).toBe(EXIT.notFound);
  });

  it('400 lists the field problems the message does not already say', async () => {
    const failure = await describeIt(brokerError(400, 'Unknown scope', { errors: [{ field: 'scopes[0]', message: 'unknown scope "x"' }] }));
    expect(failure.message).toBe('Unknown scope: scopes[0] unknown scope "x"');
    expect(failure.hint).toBe('See `miniqueue queues:create --help`.');
    const summarized = await describeIt(brokerError(400, 'name must match', { errors: [{ field: 'name', message: 'must match' }] }));
    expect(summarized.message).toBe('name must match');
  });

  it('409 is exit code 5; 429 says when to retry; 5xx points at the logs', async () => {
    expect((await describeIt(brokerError(409, 'exists'))).exitCode).toBe(EXIT.conflict);
    expect((await describeIt(brokerError(429, 'slow down', { retryAfterMs: 2500 }))).hint).toContain('try again in 3 s');
    expect((await describeIt(brokerError(503, 'Database unavailable'))).hint).toContain('logs');
  });

  it('the codes that used to get a generic hint say what to do', async () => {
    const cases: Array<[number, string, RegExp]> = [
      [503, 'push_not_configured', /MINIQUEUE_PUSH_SECRET_KEY/],
      [409, 'history_not_retained', /--acked-retention/],
      [400, 'ordering_key_required', /--ordering-key KEY/],
      [429, 'long_poll_limit', /MINIQUEUE_LONG_POLLS_PER_CREDENTIAL/],
      [403, 'origin_not_allowed', /CORS_ALLOWED_ORIGINS/],
      [404, 'push_endpoint_not_found', /queues:push:set/],
    ];
    for (const [status, code, hint] of cases) expect((await describeIt(brokerError(status, 'Reworded', { code }))).hint, code).toMatch(hint);
  });

  it('every code of the contract has a hint of its own, not its status class', async () => {
    const table = readFileSync(fileURLToPath(new URL('../../../openapi.yaml', import.meta.url)), 'utf8');
    const rows = [...table.matchAll(/^ {8}\| `([a-z_]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => [code!, Number(status)] as const);
    expect(rows.length).toBe(Object.keys(ErrorCode).length);
    const generic = new Set<string | null>();
    for (const status of new Set(rows.map(([, s]) => s)))
      generic.add((await describeIt(brokerError(status, 'Reworded', { code: 'a_code_from_a_newer_broker' }))).hint);
    for (const [code, status] of rows) {
      const { hint } = await describeIt(brokerError(status, 'Reworded', { code }), { name: 'shop', scopes: ['view'] });
      expect(hint, code).toBeTruthy();
      // These are worked out from the key, or are the one code of their status (so its hint is the status's).
      const shared = ['validation_failed', 'unauthenticated', 'scope_required', 'rate_limited', 'payload_too_large', 'internal_error'];
      if (!shared.includes(code)) expect(generic.has(hint), code).toBe(false);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { operations, servedOperations, type Operation } from '../helpers/contract.js';
import { createSession } from '../../src/auth/sessions.js';
import { issueLoginCode } from '../../src/auth/loginCodes.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { startFakeGithub, type FakeGithub } from '../auth/fakeGithub.js';
import { githubEnv } from '../auth/flow.js';
import { expectNoSecretsIn, startLoggedBroker, type LogLines } from '../auth/support.js';
import { bodyOf, pathValues, urlOf } from './examples.js';

/**
 * The security matrix, generated from openapi.yaml: every operation, whatever it is, is tried
 * without a credential, with a revoked key, with an expired session, with credentials that lack
 * its x-required-scope, and with credentials that have it.
 */

/** The queue of the message that `consume:{message.queue}` operations address. */
const MESSAGE_QUEUE = 'email-queue';
const ADMIN_LOGIN = 'matrix-admin';
const VIEWER_LOGIN = 'matrix-viewer';

let github: FakeGithub;
let mq: TestBroker;
const logs: LogLines = [];
const secrets: string[] = [];
let revokedKey: string;
let expiredSession: string;

beforeAll(async () => {
  github = await startFakeGithub();
  mq = await startLoggedBroker({ logs, env: githubEnv(github, { MINIQUEUE_ADMINS: ADMIN_LOGIN }) });
  revokedKey = await mq.clientKey('matrix-revoked', ['admin']);
  expect((await mq.del('/api/v1/clients/matrix-revoked', mq.adminKey)).status).toBe(204);
  expiredSession = await session(ADMIN_LOGIN);
  await mq.pool.query(`UPDATE dashboard_session SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashSecret(expiredSession)]);
  secrets.push(mq.adminKey, revokedKey, expiredSession);
});
afterAll(async () => {
  await mq.stop();
  await github.close();
});

/** A fresh session for each use: logout, one of the operations, ends the session it is called with. */
async function session(login: string): Promise<string> {
  const { token } = await createSession(mq.pool, { githubId: String(login.length), login });
  secrets.push(token);
  return token;
}

const keys = new Map<string, Promise<string>>();
function keyWith(scopes: string[]): Promise<string> {
  const id = scopes.join(' ');
  if (!keys.has(id)) {
    keys.set(
      id,
      mq.clientKey(`matrix-${keys.size}`, scopes).then((key) => (secrets.push(key), key)),
    );
  }
  return keys.get(id) as Promise<string>;
}

interface Need {
  rule: 'none' | 'any' | 'session' | 'scope';
  scope?: string;
  /** For publish/consume scopes naming a path parameter: the same family for another target. */
  otherTarget?: string;
}

function needOf(operation: Operation): Need {
  const rule = operation.requiredScope;
  if (rule === 'none' || rule === 'any' || rule === 'session') return { rule };
  if (rule === 'admin' || rule === 'view' || rule === 'metrics') return { rule: 'scope', scope: rule };
  if (rule === 'consume:{message.queue}') return { rule: 'scope', scope: `consume:${MESSAGE_QUEUE}` };
  // Either scope allows it; `view` is the one that lacks nothing else (a consumer's own queue is tested beside the route).
  if (rule === 'view|consume:{message.queue}') return { rule: 'scope', scope: 'view' };
  const named = /^(publish|consume):\{(\w+)\}$/.exec(rule ?? '');
  if (named) {
    const value = pathValues(operation)[named[2]];
    return { rule: 'scope', scope: `${named[1]}:${value}`, otherTarget: `${named[1]}:other-${value}` };
  }
  throw new Error(`${operation.operationId}: the matrix does not know x-required-scope ${rule}`);
}

/** Credentials that must get neither 401 nor 403. */
async function allowed(need: Need): Promise<Array<string | undefined>> {
  switch (need.rule) {
    case 'none':
      return [undefined];
    case 'any':
      return [await keyWith(['metrics']), await session(VIEWER_LOGIN)];
    case 'session':
      return [await session(VIEWER_LOGIN), await session(ADMIN_LOGIN)];
    default: {
      const sessions = need.scope === 'admin' ? [await session(ADMIN_LOGIN)] : need.scope === 'view' ? [await session(VIEWER_LOGIN)] : [];
      // admin implies every scope.
      return [await keyWith([need.scope as string]), mq.adminKey, ...sessions];
    }
  }
}

/** Valid credentials that must get 403. */
async function refused(need: Need): Promise<string[]> {
  switch (need.rule) {
    case 'none':
    case 'any':
      return [];
    case 'session':
      return [mq.adminKey];
    default: {
      const credentials = [await keyWith([need.scope === 'view' ? 'metrics' : 'view'])];
      if (need.otherTarget) credentials.push(await keyWith([need.otherTarget]));
      if (need.scope !== 'view') credentials.push(await session(VIEWER_LOGIN));
      return credentials;
    }
  }
}

/** Public operations whose own input is a credential get a real one, so they can succeed. */
const BODIES: Record<string, () => Promise<unknown>> = {
  exchangeLoginCode: async () => {
    const code = await issueLoginCode(mq.pool, { githubId: '7', login: VIEWER_LOGIN });
    secrets.push(code);
    return { code };
  },
};

async function send(operation: Operation, key: string | undefined): Promise<number> {
  const body = BODIES[operation.operationId] ? await BODIES[operation.operationId]() : bodyOf(operation);
  const response = await mq.request(operation.method, urlOf(operation), { body, key });
  return response.status;
}

const label = (key: string | undefined) => (key === undefined ? 'no credential' : `${key.slice(0, 6)}…`);

describe('security matrix', () => {
  it('has every route of the server, and the server has every operation', () => {
    const routes = servedOperations(mq.broker.server).map((route) => route.key);
    const specified = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(
      routes.filter((route) => !specified.includes(route)),
      'routes missing from openapi.yaml, so from the matrix',
    ).toEqual([]);
    expect(
      specified.filter((operation) => !routes.includes(operation)),
      'operations the server does not serve',
    ).toEqual([]);
  });

  it.each(operations.map((operation) => [`${operation.method} ${operation.path} (${operation.requiredScope})`, operation] as const))(
    '%s',
    async (_name, operation) => {
      const need = needOf(operation);
      if (need.rule === 'none') {
        // Public: whatever credential comes along is ignored, a bad one included.
        for (const key of [undefined, revokedKey, expiredSession]) {
          expect([401, 403], `${operation.operationId} with ${label(key)}`).not.toContain(await send(operation, key));
        }
        return;
      }
      expect(await send(operation, undefined), 'no credential').toBe(401);
      expect(await send(operation, revokedKey), 'revoked key').toBe(401);
      expect(await send(operation, expiredSession), 'expired session').toBe(401);
      for (const key of await refused(need)) {
        expect(await send(operation, key), `without the scope: ${label(key)}`).toBe(403);
      }
      for (const key of await allowed(need)) {
        expect([401, 403], `with the scope: ${label(key)}`).not.toContain(await send(operation, key));
      }
    },
  );

  it('left no secret in the logs', () => {
    expectNoSecretsIn(logs, secrets);
  });
});

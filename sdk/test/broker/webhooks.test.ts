import http from 'node:http';
import Hapi from '@hapi/hapi';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  constantTimeEqual,
  parsePushedMessage,
  pushHandler,
  PushSignatureError,
  verifyPushSignature,
  type MiniQueue,
  type PushedMessage,
  type PushEndpointWithSecret,
} from '../../src/index.js';
import { PUSH_ENV } from '@miniqueue/api/testing';
import { startSdkBroker, type SdkBroker } from '../helpers/broker.js';

let env: SdkBroker;
let admin: MiniQueue;
let server: http.Server;
let url: string;
const handled: PushedMessage[] = [];
const answered: number[] = [];
let secret = '';

beforeAll(async () => {
  env = await startSdkBroker(PUSH_ENV);
  admin = env.admin;
  // A plain Node http server whose handler verifies every push before it handles it.
  server = http.createServer((request, response) => {
    response.on('finish', () => answered.push(response.statusCode));
    void pushHandler(
      {
        get secret() {
          return secret;
        },
      },
      (message) => void handled.push(message),
    )(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await env.stop();
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
};

describe('push to a Node http handler', () => {
  it('verifies the broker signature, handles the message, and the 204 acks it', async () => {
    await admin.topics.create('hooks');
    await admin.queues.create('hooked', 'hooks');
    const created = (await admin.push.set('hooked', url)) as PushEndpointWithSecret;
    secret = created.secret;
    expect((await admin.push.get('hooked')) as object).not.toHaveProperty('secret');
    const [id] = (await admin.publish('hooks', '{"n":1}')).message_ids;
    await until(() => handled.some((message) => message.message_id === id));
    expect(handled.find((message) => message.message_id === id)).toMatchObject({ queue: 'hooked', payload: '{"n":1}', retry_count: 0 });
    await until(() => answered.includes(204));
  });

  it('a handler with the wrong secret answers 401, and the broker tries again later', async () => {
    const right = secret;
    secret = 'mqwh_not-the-secret';
    const [id] = (await admin.publish('hooks', '{"n":2}')).message_ids;
    await until(() => answered.includes(401));
    expect(handled.some((message) => message.message_id === id)).toBe(false);
    secret = right;
  });
});

describe('verifyPushSignature', () => {
  const body = '{"message_id":"x"}';
  const sign = async (key: string, t: number, text = body) => {
    const mac = await crypto.subtle.sign(
      'HMAC',
      await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
      new TextEncoder().encode(`${t}.${text}`),
    );
    return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
  };
  const now = 1_800_000_000;

  it('accepts a fresh signature by any of the secrets, and refuses tampering, replays and junk', async () => {
    const header = `t=${now},v1=${await sign('old', now)},v1=${await sign('new', now)}`;
    await expect(verifyPushSignature(body, header, { secret: 'new', now: () => now * 1000 })).resolves.toEqual({ timestamp: now });
    await expect(verifyPushSignature(body, header, { secret: ['x', 'old'], now: () => now * 1000 })).resolves.toEqual({ timestamp: now });
    const problem = (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: PushSignatureError) => error.problem,
      );
    expect(await problem(verifyPushSignature(`${body} `, header, { secret: 'new', now: () => now * 1000 }))).toBe('no_match');
    expect(await problem(verifyPushSignature(body, header, { secret: 'new', now: () => (now + 301) * 1000 }))).toBe('too_old');
    expect(await problem(verifyPushSignature(body, header, { secret: 'new', now: () => (now - 301) * 1000 }))).toBe('too_new');
    expect(await problem(verifyPushSignature(body, undefined, { secret: 'new' }))).toBe('missing');
    expect(await problem(verifyPushSignature(body, 'v1=abc', { secret: 'new' }))).toBe('malformed');
  });

  it('compares without stopping at the first difference', () => {
    expect(constantTimeEqual('abcd', 'abcd')).toBe(true);
    expect(constantTimeEqual('abcd', 'abce')).toBe(false);
    expect(constantTimeEqual('abcd', 'abc')).toBe(false);
  });
});

describe('push to a hapi route', () => {
  it('verifies the raw payload with verifyPushSignature before handling it', async () => {
    const server = Hapi.server({ host: '127.0.0.1', port: 0 });
    const got: PushedMessage[] = [];
    let hapiSecret = '';
    server.route({
      method: 'POST',
      path: '/hapi',
      // The raw bytes, not parsed JSON: the signature is over the body exactly as sent.
      options: { payload: { parse: false, output: 'data' } },
      handler: async (request, h) => {
        try {
          await verifyPushSignature(request.payload as Buffer, request.headers['miniqueue-signature'] as string | undefined, { secret: hapiSecret });
        } catch (error) {
          if (error instanceof PushSignatureError) return h.response(error.message).code(401);
          throw error;
        }
        got.push(parsePushedMessage(request.payload as Buffer));
        return h.response().code(204);
      },
    });
    await server.start();
    try {
      await admin.queues.create('hapi-q', 'hooks');
      hapiSecret = ((await admin.push.set('hapi-q', `${server.info.uri}/hapi`)) as PushEndpointWithSecret).secret;
      await admin.publish('hooks', '{"n":3}');
      await until(() => got.length > 0);
      expect(got[0]).toMatchObject({ queue: 'hapi-q', payload: '{"n":3}' });
    } finally {
      await server.stop();
    }
  });
});

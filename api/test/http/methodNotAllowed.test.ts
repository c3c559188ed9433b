import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

describe('a method a path does not take is 405 with Allow, in the error shape', () => {
  it.each([
    ['TRACE', '/api/v1/topics', 'GET, HEAD, POST'],
    ['PUT', '/api/v1/topics/orders', 'DELETE'],
    ['GET', '/api/v1/queues/q/consume', 'POST'],
    ['DELETE', '/api/v1/messages/ack', 'POST'],
    // A literal path wins over a template that matches it too (GET /messages/{id}, DELETE /dashboard/dlq/{id}).
    ['GET', '/api/v1/messages/ack', 'POST'],
    ['DELETE', '/api/v1/dashboard/dlq/replay', 'POST'],
    ['OPTIONS', '/api/v1/dashboard/dlq/replay', 'POST'],
    ['TRACE', '/openapi.yaml', 'GET, HEAD'],
    ['POST', '/actuator/health', 'GET, HEAD'],
  ])('%s %s', async (method, url, allow) => {
    const response = await mq.request(method, url, { key: mq.adminKey });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.body).toEqual({
      status: 405,
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${url}; it takes ${allow}`,
      errors: null,
      response_body: null,
    });
  });

  it('a path that does not exist is still 404, and so is a thing that does not exist', async () => {
    expect((await mq.request('TRACE', '/api/v1/nothing', { key: mq.adminKey })).status).toBe(404);
    expect((await mq.get('/api/v1/nothing', mq.adminKey)).status).toBe(404);
    expect((await mq.del('/api/v1/topics/nope', mq.adminKey)).status).toBe(404);
  });
});

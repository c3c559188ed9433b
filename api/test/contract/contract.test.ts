import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { OPENAPI_PATH } from '../../src/http/routes/ops.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { openapi, operations, servedOperations } from '../helpers/contract.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

const servedRoutes = () => servedOperations(mq.broker.server);

describe('openapi.yaml is the contract', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const result = await new Validator().validate(OPENAPI_PATH);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openapi.openapi).toBe('3.0.3');
  });

  it('every served route is in the spec, and every path in the spec is served', () => {
    const served = servedRoutes()
      .map((route) => route.key)
      .sort();
    const specified = operations.map((op) => `${op.method} ${op.path}`).sort();
    expect(served).toEqual(specified);
  });

  it('each route enforces the scope its operation declares', () => {
    const declared = new Map(operations.map((op) => [`${op.method} ${op.path}`, op.requiredScope]));
    for (const route of servedRoutes()) expect([route.key, route.scope]).toEqual([route.key, declared.get(route.key)]);
  });

  it('every operation has an operationId, one tag and a required scope', () => {
    for (const op of operations) {
      expect(op.operationId, `${op.method} ${op.path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.spec.tags).toHaveLength(1);
      expect(op.requiredScope).toBeTruthy();
    }
  });

  it('GET /openapi.yaml serves the checked-in file and Swagger UI is up', async () => {
    const spec = await mq.get('/openapi.yaml');
    expect(spec.status).toBe(200);
    expect(spec.headers['content-type']).toContain('yaml');
    expect(spec.body).toContain('openapi: 3.0.3');
    const ui = await mq.broker.server.inject('/swagger-ui');
    expect(ui.statusCode).toBe(200);
    expect(ui.payload).toContain('/openapi.yaml');
  });
});

import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import type { Server } from '@hapi/hapi';
import { OPENAPI_PATH } from '../../src/http/routes/ops.js';

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  requiredScope: string;
  spec: any;
}

export const openapi: any = YAML.parse(readFileSync(OPENAPI_PATH, 'utf8'));

export const operations: Operation[] = Object.entries(openapi.paths).flatMap(([path, item]: [string, any]) =>
  ['get', 'post', 'put', 'patch', 'delete']
    .filter((method) => item[method])
    .map((method) => ({
      method: method.toUpperCase(),
      path,
      operationId: item[method].operationId,
      requiredScope: item[method]['x-required-scope'],
      spec: item[method],
    })),
);

const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
ajv.addSchema({ components: openapi.components }, 'openapi.yaml');

const toRegex = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
const matchers = operations.map((operation) => ({ operation, regex: toRegex(operation.path) }));

export function findOperation(method: string, url: string): Operation | undefined {
  const path = url.split('?')[0];
  // A literal segment beats a parameter (/messages/ack before /messages/{id}/…), whatever the
  // method: GET /messages/ack is no getMessage, as in OpenAPI, where concrete paths match first.
  const parameters = (m: (typeof matchers)[number]) => m.operation.path.match(/\{/g)?.length ?? 0;
  const matching = matchers.filter((m) => m.regex.test(path)).sort((a, b) => parameters(a) - parameters(b));
  const best = matching[0]?.operation.path;
  return matching.find((m) => m.operation.path === best && m.operation.method === method.toUpperCase())?.operation;
}

const resolveRef = (node: any): any => {
  if (!node?.$ref) return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  return resolveRef(parts.reduce((at: any, part: string) => at[part], openapi));
};

const validators = new Map<string, ValidateFunction>();
function validatorFor(schema: any): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    // Rewrite local refs so they resolve inside the registered document.
    const rewritten = JSON.parse(key.replace(/"#\/components\//g, '"openapi.yaml#/components/'));
    validate = ajv.compile(rewritten);
    validators.set(key, validate);
  }
  return validate;
}

/** Throws when a response does not match what openapi.yaml promises for its operation and status. */
export function checkResponse(method: string, url: string, status: number, body: unknown, contentType: string): void {
  const operation = findOperation(method, url);
  if (!operation) {
    if (status === 404 || status === 405) return checkError(body, `${method} ${url}`);
    throw new Error(`No operation in openapi.yaml for ${method} ${url} (answered ${status})`);
  }
  const declared = resolveRef(operation.spec.responses[String(status)] ?? operation.spec.responses.default);
  if (!declared) throw new Error(`${operation.operationId} answered ${status}, which openapi.yaml does not declare`);
  const media = declared.content?.['application/json'];
  if (!media) return;
  if (!contentType.includes('application/json')) throw new Error(`${operation.operationId} ${status}: expected JSON, got ${contentType}`);
  const validate = validatorFor(media.schema);
  if (!validate(body)) {
    throw new Error(
      `${operation.operationId} ${status} does not match openapi.yaml: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

function checkError(body: unknown, what: string): void {
  const validate = validatorFor({ $ref: '#/components/schemas/Error' });
  if (!validate(body)) throw new Error(`${what}: error body is not the contract's shape: ${JSON.stringify(body)}`);
}

/** Routes that are not operations of the API: Swagger UI's own, and the dashboard's static files. */
const NOT_API = ['documentation', 'static'];

/** The server's API routes as `METHOD /path`, with the access rule each one enforces. */
export function servedOperations(server: Server): { key: string; scope: string | undefined }[] {
  return server
    .table()
    .filter((route) => !(route.settings.tags ?? []).some((tag) => NOT_API.includes(tag)))
    .map((route) => ({ key: `${route.method.toUpperCase()} ${route.path}`, scope: route.settings.plugins?.miniqueue?.scope }));
}

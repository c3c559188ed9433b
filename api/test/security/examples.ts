import { randomUUID } from 'node:crypto';
import { openapi, type Operation } from '../helpers/contract.js';

const resolve = (node: any): any => {
  if (!node?.$ref) return node;
  return resolve(
    node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, part: string) => at[part], openapi),
  );
};

/** A value that satisfies an OpenAPI schema: its example, its default, or the smallest valid thing. */
export function exampleOf(node: any): any {
  const schema = resolve(node);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map(exampleOf));
  if (schema.oneOf || schema.anyOf) return exampleOf((schema.oneOf ?? schema.anyOf)[0]);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key: string) => [key, exampleOf(schema.properties[key])]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date().toISOString();
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** The operation's parameters, path-level ones included, resolved. */
function parametersOf(operation: Operation): any[] {
  const shared = openapi.paths[operation.path].parameters ?? [];
  return [...shared, ...(operation.spec.parameters ?? [])].map(resolve);
}

/** Values for the path parameters (the same value for the same name, so scopes can name them). */
export function pathValues(operation: Operation): Record<string, string> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const parameters = parametersOf(operation);
  return Object.fromEntries(
    names.map((name) => {
      const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
      if (!parameter) throw new Error(`${operation.operationId}: path parameter ${name} is not declared`);
      return [name, String(exampleOf(parameter.schema))];
    }),
  );
}

/** The URL of a valid request: path parameters filled in, required query parameters given. */
export function urlOf(operation: Operation): string {
  const values = pathValues(operation);
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]));
  const query = parametersOf(operation)
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(String(exampleOf(p.schema)))}`);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** A valid JSON body when the operation takes one. */
export function bodyOf(operation: Operation): unknown {
  const schema = operation.spec.requestBody?.content?.['application/json']?.schema;
  return schema ? exampleOf(schema) : undefined;
}

/**
 * Swagger shows each error status with its own example body, not the Error schema's one (a 404)
 * for all of them: every error response of openapi.yaml has an example of its status, with a code
 * the contract gives that status, in the error shape.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const spec = parse(readFileSync(fileURLToPath(new URL('../../../openapi.yaml', import.meta.url)), 'utf8'));
const errorResponses = Object.entries<{ content: Record<string, { schema: { $ref?: string }; example?: Record<string, unknown> }> }>(
  spec.components.responses,
).filter(([, response]) => response.content?.['application/json']?.schema.$ref === '#/components/schemas/Error');
/** code → status, from the ErrorCode table in the contract. */
const statusOfCode = new Map(
  [...String(spec.components.schemas.ErrorCode.description).matchAll(/\| `([a-z_]+)` \| (\d{3}) \|/g)].map(([, code, status]) => [code, Number(status)]),
);

/** Which status each error response is used for, from the operations that refer to it. */
function statusesOf(name: string): Set<number> {
  const statuses = new Set<number>();
  for (const operations of Object.values<Record<string, { responses?: Record<string, { $ref?: string }> }>>(spec.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if (response.$ref === `#/components/responses/${name}`) statuses.add(Number(status));
    }
  }
  return statuses;
}

describe('error examples', () => {
  it('every error response has an example, each of another status', () => {
    const statuses = errorResponses.map(([, response]) => response.content['application/json']!.example?.status);
    expect(statuses.every((status) => typeof status === 'number')).toBe(true);
    expect(new Set(statuses).size).toBe(errorResponses.length);
  });

  for (const [name, response] of errorResponses) {
    it(`${name}: its example is of the status it is used for, in the error shape`, () => {
      const example = response.content['application/json']!.example!;
      for (const used of statusesOf(name)) expect(used, `${name} is used for ${used}`).toBe(example.status);
      expect(statusOfCode.get(String(example.code))).toBe(example.status);
      expect(Object.keys(example)).toEqual(expect.arrayContaining(spec.components.schemas.Error.required));
    });
  }
});

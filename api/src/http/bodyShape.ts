import type { Request, Server } from '@hapi/hapi';
import { ValidationError, type FieldError } from '../errors.js';

/**
 * No object in any request body of the contract has more than 50 fields (message headers), and no
 * array more than 500 items (a batch). A body far wider than that is refused before joi sees it:
 * joi takes 0.75 s to look at an object of 120,000 keys (it copies it), four times as long as
 * parsing it, so the width of a body would otherwise buy CPU time.
 */
const MAX_FIELDS = 100;
const MAX_ITEMS = 500;
/**
 * The deepest body of the contract is a queue's filter at its deepest (body, filter, and, or, not,
 * condition, one_of: 8 levels of objects and arrays); test/security/nestedBodies.test.ts checks
 * this against openapi.yaml. Anything deeper is refused here, first, because every later reader
 * of the body (joi, the validation answer) walks it by recursion: 7 KB of brackets overflowed the
 * stack (a 500) or, just short of that, cost 0.2 s of event loop per request.
 */
export const MAX_DEPTH = 10;
/** Field paths in the answer are cut to this, as joi's are (validationFailures.ts). */
const MAX_FIELD_LENGTH = 100;

/** One value on the walk's stack: how to name it (through its parent) and how deep it lies. */
interface Visit {
  node: unknown;
  key: string;
  parent: Visit | null;
  depth: number;
}

function fieldOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) keys.push(at.key);
  const field = keys.reverse().join('.') || 'body';
  return field.length > MAX_FIELD_LENGTH ? `${field.slice(0, MAX_FIELD_LENGTH - 1)}…` : field;
}

function problemOf(node: object, depth: number): string | null {
  if (depth > MAX_DEPTH) return `is nested more than ${MAX_DEPTH} levels deep`;
  if (Array.isArray(node)) return node.length > MAX_ITEMS ? `has more than ${MAX_ITEMS} items` : null;
  return Object.keys(node).length > MAX_FIELDS ? `has more than ${MAX_FIELDS} fields` : null;
}

/**
 * The first value of a parsed body that is too wide or too deep, in document order, or null.
 * Iterative, with the path kept as parent links (built only for the answer), and it never looks
 * inside a value too deep or too wide: its cost is bounded by the limits, not by the body.
 */
export function shapeProblem(body: unknown): FieldError | null {
  const stack: Visit[] = [{ node: body, key: '', parent: null, depth: 1 }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { node, depth } = visit;
    if (node === null || typeof node !== 'object') continue;
    const message = problemOf(node, depth);
    if (message) return { field: fieldOf(visit), message };
    const children = Object.entries(node);
    // Pushed last to first, so the first child is looked at first.
    for (let i = children.length - 1; i >= 0; i -= 1) {
      stack.push({ node: children[i][1], key: children[i][0], parent: visit, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * hapi parses an absent body and a body of JSON `null` alike, to null, and the routes whose body
 * is optional allow null for the first. The second is not the object the contract asks for: it
 * is told apart by its length. (A chunked `null`, without Content-Length, still passes as absent.)
 */
const isNullBody = (request: Request) => request.payload === null && Number(request.headers['content-length'] ?? 0) > 0;

/**
 * Bodies of JSON null, and bodies far wider or deeper than the contract: right after parsing,
 * before validation or anything else reads them.
 */
export function refuseMisshapenBodies(server: Server): void {
  server.ext('onPostAuth', (request, h) => {
    if (isNullBody(request))
      throw new ValidationError('body must be a JSON object, or absent', [{ field: 'body', message: 'must be a JSON object, or absent' }]);
    const problem = shapeProblem(request.payload);
    if (problem) throw new ValidationError(`${problem.field} ${problem.message}`, [problem]);
    return h.continue;
  });
}

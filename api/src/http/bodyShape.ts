import type { Request, Server } from '@hapi/hapi';
import { ValidationError } from '../errors.js';

/**
 * No object in any request body of the contract has more than 50 fields (message headers), and no
 * array more than 500 items (a batch). A body far wider than that is refused before joi sees it:
 * joi takes 0.75 s to look at an object of 120,000 keys (it copies it), four times as long as
 * parsing it, so the width of a body would otherwise buy CPU time.
 */
const MAX_FIELDS = 100;
const MAX_ITEMS = 500;

function tooWide(node: unknown, path: string[]): { field: string; message: string } | null {
  if (node === null || typeof node !== 'object') return null;
  const field = path.join('.') || 'body';
  if (Array.isArray(node)) {
    if (node.length > MAX_ITEMS) return { field, message: `has more than ${MAX_ITEMS} items` };
  } else if (Object.keys(node).length > MAX_FIELDS) {
    return { field, message: `has more than ${MAX_FIELDS} fields` };
  }
  for (const [key, child] of Object.entries(node)) {
    const found = tooWide(child, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * hapi parses an absent body and a body of JSON `null` alike, to null, and the routes whose body
 * is optional allow null for the first. The second is not the object the contract asks for: it
 * is told apart by its length. (A chunked `null`, without Content-Length, still passes as absent.)
 */
const isNullBody = (request: Request) =>
  request.payload === null && Number(request.headers['content-length'] ?? 0) > 0;

/** Bodies of JSON null, and bodies far wider than the contract: after parsing, before validation. */
export function refuseMisshapenBodies(server: Server): void {
  server.ext('onPostAuth', (request, h) => {
    if (isNullBody(request)) throw new ValidationError('body must be a JSON object, or absent', [{ field: 'body', message: 'must be a JSON object, or absent' }]);
    const problem = tooWide(request.payload, []);
    if (problem) throw new ValidationError(`${problem.field} ${problem.message}`, [problem]);
    return h.continue;
  });
}

import type { Lifecycle, Request, RouteOptionsValidate } from '@hapi/hapi';
import type { Schema, ValidationError as JoiValidationError, ValidationErrorItem } from 'joi';
import { ValidationError } from '../errors.js';

/**
 * How bad input is validated and answered, so that neither costs more than the input is worth.
 * joi stops at the first problem: listing every problem of a body with 100,000 unknown keys took
 * 1.7 s of CPU and 100 MB (and 300,000 overflowed joi's stack), all chosen by the sender. Input
 * of at most MAX_VALUES values is then validated again to list its problems; the answer lists the
 * first ten, each cut short, and counts the rest.
 */
export const VALIDATION_OPTIONS = { abortEarly: true };

const MAX_VALUES = 1_000;
const MAX_LISTED_PROBLEMS = 10;
const MAX_FIELD_LENGTH = 100;
const MAX_PROBLEM_LENGTH = 200;
type Source = 'payload' | 'query' | 'params' | 'headers';

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Whether `value` holds at most `budget` values (keys and array items count), without walking more. */
function fewValues(value: unknown, budget = MAX_VALUES): boolean {
  let left = budget;
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object') return true;
    for (const child of Object.values(node)) {
      left -= 1;
      if (left < 0 || !visit(child)) return false;
    }
    return true;
  };
  return visit(value);
}

function problemsOf(request: Request, source: Source | undefined, first: ValidationErrorItem[]): ValidationErrorItem[] {
  if (!source) return first;
  const input = request[source];
  const schema = (request.route.settings.validate as RouteOptionsValidate)[source] as Schema | undefined;
  if (typeof schema?.validate !== 'function') return first;
  return problemsOfValue(schema, input, first);
}

/** joi validation failures become a 400 in the error shape, listing (some of) the field problems. */
export const failAction: Lifecycle.Method = (request, _h, error) => {
  const boom = error as (JoiValidationError & { output?: { payload?: { validation?: { source?: Source } } } }) | undefined;
  throw validationErrorOf(problemsOf(request, boom?.output?.payload?.validation?.source, boom?.details ?? []));
};

/** joi's problems as the contract's 400: the first ten, each cut short, and a count of the rest. */
export function validationErrorOf(details: ValidationErrorItem[]): ValidationError {
  const errors = details.slice(0, MAX_LISTED_PROBLEMS).map((detail) => ({
    field: cut(detail.path.join('.') || String(detail.context?.key ?? 'body'), MAX_FIELD_LENGTH),
    message: cut(detail.message.replace(/^"(?:[^"\\]|\\.)*" /, ''), MAX_PROBLEM_LENGTH),
  }));
  const more = details.length - errors.length;
  const listed = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  const summary = errors.length === 0 ? 'Invalid request' : more > 0 ? `${listed}; and ${more} more problems` : listed;
  return new ValidationError(summary, errors.length > 0 ? errors : null);
}

/** Problems of input that may be large: all of them only when it holds few values (see above). */
export function problemsOfValue(schema: Schema, value: unknown, first: ValidationErrorItem[]): ValidationErrorItem[] {
  if (!fewValues(value)) return first;
  return schema.validate(value, { abortEarly: false }).error?.details ?? first;
}

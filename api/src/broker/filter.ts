/**
 * Filters of queue bindings on message headers: a queue takes only the messages its filter matches.
 * The broker checks a filter's shape when a queue is created or changed (here) and PostgreSQL
 * evaluates it in the publish statement (miniqueue_filter_matches, migration 0009), so a publish
 * sees the filters as they are committed, on every instance, with no cache to go stale.
 *
 *   condition  {"header": h, "equals": v} | {"header": h, "one_of": [v, …]} | {"header": h, "prefix": p}
 *              | {"header": h, "exists": true|false}
 *   term       condition | {"not": condition}
 *   filter     term | {"and": [filter, …]} | {"or": [filter, …]}, at most two levels of and/or
 *
 * The bounds keep one filter's cost per publish small and known: at most 10 entries per and/or,
 * so at most 100 conditions, each with at most 20 values.
 */
export type HeaderFilter =
  | { header: string; equals: string }
  | { header: string; one_of: string[] }
  | { header: string; prefix: string }
  | { header: string; exists: boolean }
  | { not: HeaderFilter }
  | { and: HeaderFilter[] }
  | { or: HeaderFilter[] };

export const FILTER_LIMITS = { logicLevels: 2, entries: 10, values: 20, text: 256, header: 200 } as const;

const CONDITIONS = ['equals', 'one_of', 'prefix', 'exists'] as const;
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /[\u0000\p{Cs}]/u;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function textProblem(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > max) return `must be at most ${max} characters`;
  if (UNSTORABLE.test(value)) return 'must not contain NUL characters or unpaired UTF-16 surrogates';
  return null;
}

function conditionProblem(node: Record<string, unknown>, at: string): string | null {
  const keys = Object.keys(node);
  const ops = keys.filter((key) => (CONDITIONS as readonly string[]).includes(key));
  if (!('header' in node) || ops.length !== 1 || keys.length !== 2) {
    // No braces: joi reads them as template syntax in a message.
    return `${at} must be a condition ("header" and exactly one of ${CONDITIONS.join(', ')}), or "not", "and" or "or" alone`;
  }
  const header = textProblem(node.header, FILTER_LIMITS.header);
  if (header) return `${at}.header ${header}`;
  const [op] = ops;
  const value = node[op];
  if (op === 'exists') return typeof value === 'boolean' ? null : `${at}.exists must be true or false`;
  if (op === 'one_of') {
    if (!Array.isArray(value) || value.length < 1 || value.length > FILTER_LIMITS.values) {
      return `${at}.one_of must be a list of 1 to ${FILTER_LIMITS.values} strings`;
    }
    for (const [index, item] of value.entries()) {
      const problem = textProblem(item, FILTER_LIMITS.text);
      if (problem) return `${at}.one_of[${index}] ${problem}`;
    }
    return null;
  }
  const problem = textProblem(value, FILTER_LIMITS.text);
  return problem ? `${at}.${op} ${problem}` : null;
}

/** What is wrong with a filter, naming where (e.g. `filter.or[1].not`); null when it is valid. */
export function filterProblem(node: unknown, at = 'filter', logicLevels: number = FILTER_LIMITS.logicLevels): string | null {
  if (!isObject(node)) return `${at} must be an object`;
  for (const logic of ['and', 'or'] as const) {
    if (!(logic in node)) continue;
    if (Object.keys(node).length !== 1) return `${at} must have "${logic}" as its only key`;
    if (logicLevels === 0) return `${at} nests "and"/"or" deeper than ${FILTER_LIMITS.logicLevels} levels`;
    const list = node[logic];
    if (!Array.isArray(list) || list.length < 1 || list.length > FILTER_LIMITS.entries) {
      return `${at}.${logic} must be a list of 1 to ${FILTER_LIMITS.entries} filters`;
    }
    for (const [index, child] of list.entries()) {
      const problem = filterProblem(child, `${at}.${logic}[${index}]`, logicLevels - 1);
      if (problem) return problem;
    }
    return null;
  }
  if ('not' in node) {
    if (Object.keys(node).length !== 1) return `${at} must have "not" as its only key`;
    if (!isObject(node.not)) return `${at}.not must be a condition object`;
    return conditionProblem(node.not, `${at}.not`);
  }
  return conditionProblem(node, at);
}

import { Flags } from '@oclif/core';
import type { HeaderFilter } from '@miniqueue/sdk';
import { EXIT, Failure } from './failure.js';

const HELP = 'e.g. --filter \'{"header":"region","one_of":["eu","us"]}\'; `miniqueue queues:create --help` shows the forms';

/** --filter: a header filter as JSON (the broker checks its shape and names any problem). */
export const filterFlag = (summary: string) => Flags.string({ summary });

/** The flag's JSON as a filter; "none" (for update) is null, no filter. */
export function parseFilter(raw: string | undefined, allowNone = false): HeaderFilter | null | undefined {
  if (raw === undefined) return undefined;
  if (allowNone && raw === 'none') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Failure('--filter is not JSON', HELP, EXIT.usage);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Failure('--filter must be a JSON object', HELP, EXIT.usage);
  return parsed as HeaderFilter;
}

export const FILTER_FORMS = `A filter is JSON on message headers: {"header":H,"equals":V}, {"header":H,"one_of":[V,...]}, {"header":H,"prefix":P}, {"header":H,"exists":true|false}, {"not":CONDITION}, or {"and":[...]} / {"or":[...]} of those (two levels at most).`;

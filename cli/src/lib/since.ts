import { EXIT, Failure } from './failure.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A point in time given on the command line: an RFC 3339 time (`2026-11-29T10:00:00Z`), or an age
 * such as `90m`, `2h` or `1d` (that long before now).
 */
export function parseSince(text: string, now = Date.now()): Date {
  const age = /^(\d+)([smhd])$/.exec(text.trim());
  if (age) return new Date(now - Number(age[1]) * UNIT_MS[age[2]]);
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new Failure(`Not a time: ${text}`, 'Give an RFC 3339 time (2026-11-29T10:00:00Z) or an age (90m, 2h, 1d).', EXIT.usage);
  }
  return new Date(time);
}

import Joi from 'joi';
import { DeadReason } from '@miniqueue/sdk';
import { RESERVED_HEADER_PREFIX } from '../db/queries/historyReplay.js';

export { name } from '../broker/names.js';

export const messageId = Joi.string().guid().messages({ 'string.guid': 'must be a UUID' });

/**
 * Numbers and booleans of JSON bodies: JSON has real ones, so `"10"` is refused as the contract's
 * types say (joi would convert it). The query string is all text and still converts.
 */
export const bodyInteger = () => Joi.number().integer().strict();
export const bodyBoolean = () => Joi.boolean().strict();

export const delaySeconds = bodyInteger().min(0).max(900);
/** A message's time to live after its publish (migration 0019): 1 second to 14 days. */
export const expiresInSeconds = bodyInteger().min(1).max(1_209_600);
/** A message's priority (migration 0021): 0 (the default) to 9, highest first in queues with a max_priority. */
export const priority = bodyInteger().min(0).max(9);

/**
 * What PostgreSQL cannot keep in text or jsonb (NUL), or is not Unicode at all (an unpaired UTF-16
 * surrogate, which JSON's \uD800 escapes can carry). Refused up front, naming the field, rather
 * than failing in the database with an error that quotes the content.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /[\u0000\p{Cs}]/u;
const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** Free text the broker stores: payloads, header names and values, idempotency keys. */
export const storableText = () => Joi.string().pattern(UNSTORABLE, { invert: true }).messages({ 'string.pattern.invert.base': UNSTORABLE_MESSAGE });

const HEADER_NAME_MAX = 200;

/**
 * Message headers. Any JSON object key is a name (the empty one too: OpenAPI 3.0 cannot restrict
 * names, so the contract allows it); only length and storability are checked, and a bad name is
 * reported on `headers` without echoing it.
 */
export const headers = Joi.object()
  .pattern(Joi.string().allow(''), storableText().max(4096).allow(''))
  .max(50)
  .custom((value: Record<string, string>, helpers) => {
    const names = Object.keys(value);
    if (names.some((key) => key.length > HEADER_NAME_MAX || UNSTORABLE.test(key))) {
      return helpers.message({ custom: `names must be at most ${HEADER_NAME_MAX} characters and ${UNSTORABLE_MESSAGE}` });
    }
    // The broker's own (a replayed copy names its original): a publisher could otherwise forge them.
    if (names.some((key) => key.toLowerCase().startsWith(RESERVED_HEADER_PREFIX))) {
      return helpers.message({ custom: `names starting with "${RESERVED_HEADER_PREFIX}" are reserved for the broker` });
    }
    return value;
  });

export const idempotencyKey = storableText().min(1).max(200);
/** Messages with the same ordering key are delivered one at a time, in publish order, per queue. */
export const orderingKey = storableText().min(1).max(200);
/** The group a fair queue shares its messages out by (migration 0022): as an ordering key is written. */
export const groupKey = storableText().min(1).max(200);

/** In the query string of consume; `bodyWaitSeconds` in the body of receive. */
export const waitSeconds = Joi.number().integer().min(0).max(20);
export const bodyWaitSeconds = waitSeconds.strict();

export const status = Joi.string().valid('PENDING', 'UNACKED', 'ACKED', 'DEAD');

/**
 * A cursor is a position in the listing (broker/listing.ts): digits, which the contract can
 * describe exactly, so any value it allows is one the server takes.
 */
/** `name=value` of the message listing's header filter: the name up to the first `=`. */
export const headerFilter = storableText()
  .pattern(/^[^=]*=/)
  .messages({ 'string.pattern.base': 'must be name=value (the name without "=")' });

/** Every reason of the contract's DeadReason, from the SDK generated from it, so a new one is filterable at once. */
export const deadReason = Joi.string().valid(...Object.values(DeadReason));

export const pageQuery = {
  limit: Joi.number().integer().min(1).max(500).default(50),
  cursor: Joi.string()
    .pattern(/^[0-9]{19,36}$/)
    .messages({ 'string.pattern.base': 'must be a next_cursor from an earlier page (19 to 36 digits)' }),
};

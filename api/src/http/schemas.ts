import Joi from 'joi';

/** Names of topics, queues and clients: lowercased first, then checked. */
export const name = Joi.string()
  .lowercase()
  .pattern(/^[a-z0-9._-]{1,100}$/)
  .messages({ 'string.pattern.base': 'must be 1 to 100 characters of a-z, 0-9, ".", "_" or "-"' });

export const messageId = Joi.string().guid().messages({ 'string.guid': 'must be a UUID' });

/**
 * Numbers and booleans of JSON bodies: JSON has real ones, so `"10"` is refused as the contract's
 * types say (joi would convert it). The query string is all text and still converts.
 */
export const bodyInteger = () => Joi.number().integer().strict();
export const bodyBoolean = () => Joi.boolean().strict();

export const delaySeconds = bodyInteger().min(0).max(900);

export const headers = Joi.object().pattern(Joi.string().min(1).max(200), Joi.string().max(4096).allow('')).max(50);

export const idempotencyKey = Joi.string().min(1).max(200);

/** In the query string of consume; `bodyWaitSeconds` in the body of receive. */
export const waitSeconds = Joi.number().integer().min(0).max(20);
export const bodyWaitSeconds = waitSeconds.strict();

export const status = Joi.string().valid('PENDING', 'UNACKED', 'ACKED', 'DEAD');

export const pageQuery = {
  limit: Joi.number().integer().min(1).max(500).default(50),
  cursor: Joi.string().max(200),
};

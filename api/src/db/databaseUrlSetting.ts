import Joi from 'joi';
import { DatabaseUrlError, parseDatabaseUrl } from './databaseUrl.js';

const oneHost = Joi.string().uri({ scheme: ['postgres', 'postgresql'] });

/**
 * DATABASE_URL's check at boot (config.ts): a one-host URL is held to what it always was, a
 * multi-host one to libpq's form, and a bad one stops the broker with the setting's name and the
 * reason, never the URL itself (it holds the password).
 */
export function checkDatabaseUrl(value: string, helpers: Joi.CustomHelpers): string | Joi.ErrorReport {
  try {
    if (parseDatabaseUrl(value).sessionAttrs === undefined) Joi.assert(value, oneHost);
    return value;
  } catch (error) {
    const reason = error instanceof DatabaseUrlError ? error.message : 'must be a postgres:// or postgresql:// URL';
    return helpers.message({ custom: `{#label} ${reason}` });
  }
}

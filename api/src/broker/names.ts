import Joi from 'joi';

/**
 * Names of topics, queues and clients: lowercased first, then checked. `.` and `..` are refused:
 * as a path segment, clients and proxies resolve them away, so no URL could address them.
 */
export const name = Joi.string()
  .lowercase()
  .pattern(/^(?!\.\.?$)[a-z0-9._-]{1,100}$/)
  .messages({ 'string.pattern.base': 'must be 1 to 100 characters of a-z, 0-9, ".", "_" or "-", other than "." and ".."' });

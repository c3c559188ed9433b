import type { RouteOptionsCors } from '@hapi/hapi';
import type { Config } from '../config.js';

/**
 * hapi's CORS for every route, from CORS_ALLOWED_ORIGINS. Credentials travel in the Authorization
 * header, never in cookies, so `credentials` stays off. An empty list turns CORS off: browsers on
 * other origins then cannot read any response.
 */
export function corsOptions(config: Pick<Config, 'corsAllowedOrigins'>): RouteOptionsCors | false {
  if (config.corsAllowedOrigins.length === 0) return false;
  return {
    origin: config.corsAllowedOrigins,
    additionalHeaders: ['Idempotency-Key', 'MiniQueue-Instance'],
    additionalExposedHeaders: ['Retry-After', 'Location'],
    maxAge: 600,
    credentials: false,
  };
}

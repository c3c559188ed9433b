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

const wildcard = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/**
 * Whether a browser origin may use the API or open a WebSocket; the same rules hapi applies to
 * HTTP (exact origins, `*`, or `https://*.example.com` patterns). No Origin header means a program,
 * not a browser, and is allowed.
 */
export function originAllowed(allowed: string[], origin: string | undefined): boolean {
  if (origin === undefined) return true;
  return allowed.some((entry) => (entry.includes('*') ? wildcard(entry).test(origin) : entry === origin));
}

import type { Request, ResponseToolkit, RouteOptionsSecure, Server } from '@hapi/hapi';

/**
 * hapi's own security headers, on every route: HSTS (browsers ignore it over plain HTTP), no
 * framing, no MIME sniffing, and no Referer, so URLs carrying one-time codes are not passed on.
 */
export const SECURITY_HEADERS: RouteOptionsSecure = {
  hsts: { maxAge: 31_536_000, includeSubDomains: true },
  xframe: 'deny',
  xss: 'disabled',
  noOpen: true,
  noSniff: true,
  referrer: 'no-referrer',
};

/** Swagger UI is a page with scripts and styles and sets its own policy (routes/swaggerUi.ts); everything else is data and may load nothing. */
const isDocumentation = (request: Request) => request.path.startsWith('/swagger-ui');

/**
 * What hapi does not set: a Content-Security-Policy that forbids any active content, and no-store
 * on the API, whose answers carry tokens, keys and message payloads. Registered after the error
 * shape's onPreResponse, which replaces error responses, so errors get these headers too.
 */
export function registerSecurityHeaders(server: Server): void {
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!response || 'isBoom' in response) return h.continue;
    if (!isDocumentation(request)) response.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    if (request.path.startsWith('/api/')) response.header('cache-control', 'no-store');
    return h.continue;
  });
}

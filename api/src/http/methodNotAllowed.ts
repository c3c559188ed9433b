import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, RouteDefMethods, Server } from '@hapi/hapi';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The dashboard's catch-all for GETs of paths no other route serves (routes/dashboardStatic.ts). */
const CATCH_ALL = '/{path*}';

/** hapi's own route for what matches nothing, or the dashboard's catch-all. */
const isUnrouted = (request: Request) => (request.route.method as string) === '_special' || request.route.path === CATCH_ALL;

/**
 * A path the API serves, asked with a method it does not take, is 405 with `Allow` (RFC 9110),
 * not the 404 hapi gives when no route matches the method. A path it does not serve stays 404.
 * Registered before the error shape, which then gives the 405 its body and passes Allow on.
 */
export function answerWrongMethods(server: Server): void {
  const takes = (method: (typeof METHODS)[number], path: string) => {
    // hapi answers HEAD with the GET route.
    const route = server.match((method === 'HEAD' ? 'GET' : method) as RouteDefMethods, path);
    return route !== null && route.path !== CATCH_ALL;
  };
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!Boom.isBoom(response) || response.output.statusCode !== 404 || !isUnrouted(request)) return h.continue;
    const allowed = METHODS.filter((method) => takes(method, request.path));
    if (allowed.length === 0) return h.continue;
    const method = request.method.toUpperCase();
    // Changed in place: a response thrown here would skip the error shape's onPreResponse.
    response.message = `${method} is not allowed on ${request.path}; it takes ${allowed.join(', ')}`;
    response.output.statusCode = 405;
    response.reformat();
    response.output.headers.Allow = allowed.join(', ');
    return h.continue;
  });
}

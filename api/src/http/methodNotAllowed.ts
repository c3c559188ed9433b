import Boom from '@hapi/boom';
import type { Request, RequestRoute, ResponseToolkit, RouteDefMethods, Server } from '@hapi/hapi';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The dashboard's catch-all for GETs of paths no other route serves (routes/dashboardStatic.ts). */
const CATCH_ALL = '/{path*}';

/** hapi's own route for what matches nothing, or the dashboard's catch-all. */
const isUnrouted = (request: Request) => (request.route.method as string) === '_special' || request.route.path === CATCH_ALL;

/** How many parameters a route's path has: a literal path (0) is more specific than a template. */
const parametersIn = (path: string) => path.split('{').length - 1;

/**
 * A path the API serves, asked with a method it does not take, is 405 with `Allow` (RFC 9110),
 * not the 404 hapi gives when no route matches the method. A path it does not serve stays 404.
 * Registered before the error shape, which then gives the 405 its body and passes Allow on.
 *
 * As in OpenAPI, a literal path wins over a template that also matches it: `/messages/ack` is
 * POST's only, though `GET /messages/{id}` would match it, so `GET /messages/ack` is 405 too
 * (not a 400 for an id that is no UUID), and `Allow` does not list GET.
 */
export function answerWrongMethods(server: Server): void {
  const routeOf = (method: (typeof METHODS)[number], path: string): RequestRoute | null => {
    // hapi answers HEAD with the GET route.
    const route = server.match((method === 'HEAD' ? 'GET' : method) as RouteDefMethods, path);
    return route !== null && route.path !== CATCH_ALL ? route : null;
  };
  /** The methods of the most specific routes that match the path. */
  const allowedOn = (path: string) => {
    const routes = METHODS.map((method) => [method, routeOf(method, path)] as const).filter(([, route]) => route !== null);
    const fewest = Math.min(...routes.map(([, route]) => parametersIn((route as RequestRoute).path)));
    return routes.filter(([, route]) => parametersIn((route as RequestRoute).path) === fewest).map(([method]) => method);
  };
  /** Literal paths served by some method: only a request to one of them can hit a template it shadows. */
  let literalPaths: Set<string> | undefined;
  const literals = () =>
    (literalPaths ??= new Set(
      server
        .table()
        .filter((route) => parametersIn(route.path) === 0)
        .map((route) => route.path),
    ));
  const shadowed = new WeakSet<Request>();

  server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
    if (parametersIn(request.route.path) === 0 || !literals().has(request.path)) return h.continue;
    if (allowedOn(request.path).includes(request.method.toUpperCase() as (typeof METHODS)[number])) return h.continue;
    shadowed.add(request);
    throw Boom.notFound();
  });
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!Boom.isBoom(response) || response.output.statusCode !== 404 || !(isUnrouted(request) || shadowed.has(request))) return h.continue;
    const allowed = allowedOn(request.path);
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

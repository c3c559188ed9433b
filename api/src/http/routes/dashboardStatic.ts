import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Boom from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';

/** Where `npm run build -w @miniqueue/dashboard` writes the dashboard. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../../../dashboard/dist', import.meta.url));

/**
 * Paths the broker itself answers. An unknown one is the API's JSON 404, never the dashboard's
 * page: a program calling a wrong URL must not get HTML back with a 200.
 */
const SERVER_PATHS = /^(api|actuator|ws|swagger-ui)(\/|$)|^(openapi|asyncapi)\.yaml$/;

/** A last segment with an extension asks for a file; a missing one is a 404, not the page. */
const LOOKS_LIKE_FILE = /\.[A-Za-z0-9]+$/;

/**
 * The API's own policy forbids every resource; the dashboard's page loads its own scripts and
 * styles, calls the API and opens /ws/monitor on this origin ('self' covers ws: and wss: there).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const MISSING_BUILD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MiniQueue</title></head>
<body>
<h1>MiniQueue is running</h1>
<p>The dashboard has not been built yet. From the repository root run:</p>
<pre>npm run build -w @miniqueue/sdk
npm run build -w @miniqueue/dashboard</pre>
<p>then reload this page. The API keeps working meanwhile; it is documented at <a href="/swagger-ui">/swagger-ui</a>.</p>
</body></html>
`;

/** Responses that are the dashboard's own, which get its policy instead of the API's. */
const served = new WeakSet<Request>();

const dashboardHeaders: Lifecycle.Method = (request, h) => {
  const response = request.response;
  if (served.has(request) && response && !Boom.isBoom(response)) response.header('content-security-policy', DASHBOARD_CSP);
  return h.continue;
};

/** The file a path names inside `root`, or null: no escaping it, no dotfiles, no directories. */
function fileIn(root: string, relative: string): string | null {
  if (relative === '' || relative.split('/').some((segment) => segment.startsWith('.'))) return null;
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

function handler(root: string): Lifecycle.Method {
  return (request: Request, h: ResponseToolkit) => {
    const relative = String(request.params.path ?? '');
    if (SERVER_PATHS.test(relative)) throw Boom.notFound();
    const index = path.join(root, 'index.html');
    if (!existsSync(index)) {
      if (LOOKS_LIKE_FILE.test(relative)) throw Boom.notFound();
      return h.response(MISSING_BUILD).type('text/html; charset=utf-8').header('cache-control', 'no-store');
    }
    const file = fileIn(root, relative);
    if (!file && LOOKS_LIKE_FILE.test(relative)) throw Boom.notFound();
    served.add(request);
    if (!file) {
      // Any other path is one of the dashboard's own pages (/queues, /clients…): its script routes it.
      return h.file(index, { confine: root }).header('cache-control', 'no-cache');
    }
    // Vite puts a content hash in every asset's name, so a name never changes meaning.
    const immutable = relative.startsWith('assets/');
    return h.file(file, { confine: root }).header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
}

/**
 * The built dashboard at `/`, with index.html for every client-side page. Not part of the API
 * contract (tagged 'static'); public, since the page itself holds no data until sign-in.
 */
export function dashboardStaticRoutes(root: string = DASHBOARD_DIST): ServerRoute[] {
  const dist = path.resolve(root);
  return [
    {
      method: 'GET',
      path: '/{path*}',
      options: {
        auth: false,
        tags: ['static'],
        ext: { onPreResponse: { method: dashboardHeaders } },
      },
      handler: handler(dist),
    },
  ];
}

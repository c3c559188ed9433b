import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerRoute } from '@hapi/hapi';
import { access } from '../access.js';

const ASSETS = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** Only what the page loads: not the stock index.html or oauth2-redirect.html, which read their own settings. */
const FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png'];

/**
 * The page's one script. It names the spec itself and turns off Swagger UI's query-string
 * configuration, so a link like `/swagger-ui?url=https://elsewhere/spec.yaml` cannot show a
 * foreign API under this broker's name (and send the key typed into Authorize to its servers).
 * BaseLayout: no top bar, whose box would load another spec.
 */
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  queryConfigEnabled: false,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout"
});`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>MiniQueue API</title>
<link rel="stylesheet" href="/swagger-ui/swagger-ui.css">
<link rel="icon" type="image/png" href="/swagger-ui/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/swagger-ui/swagger-ui-bundle.js"></script>
<script>${INIT}</script>
</body>
</html>
`;

/**
 * Scripts: the bundle from this server and the one inline script above, by its hash. Requests
 * (the spec, "Try it out"): this server only, so a key typed into Authorize goes nowhere else.
 * Swagger UI styles elements inline and draws icons from data: URIs.
 */
export const SWAGGER_UI_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(INIT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Swagger UI at /swagger-ui, on the checked-in openapi.yaml. */
export function swaggerUiRoutes(): ServerRoute[] {
  const options = { ...access('none'), tags: ['documentation'] };
  return [
    {
      method: 'GET',
      path: '/swagger-ui',
      options,
      handler: (_request, h) => h.response(PAGE).type('text/html').header('content-security-policy', SWAGGER_UI_CSP),
    },
    ...FILES.map((file): ServerRoute => ({
      method: 'GET',
      path: `/swagger-ui/${file}`,
      options,
      handler: (_request, h) => h.file(path.join(ASSETS, file), { confine: false }).header('cache-control', 'public, max-age=3600'),
    })),
  ];
}

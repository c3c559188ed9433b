import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';

/**
 * Refuses a body of a type its route does not take (415), from the headers, before reading any
 * of it. hapi refuses it too, but only after reading (draining) the whole body; answered here,
 * the client can stop sending and the connection closes after the answer. A request without a
 * Content-Type is read as the route's default (JSON), as hapi does.
 */
export function refuseUnsupportedBodies(server: Server): void {
  server.ext('onPreAuth', (request, h) => {
    if (request.method === 'get' || request.method === 'head') return h.continue;
    const settings = request.route.settings.payload;
    const allowed = settings?.allow;
    if (!allowed) return h.continue;
    const header = String(request.headers['content-type'] ?? settings.defaultContentType ?? 'application/json');
    const mime = header.split(';')[0].trim().toLowerCase();
    if (!(Array.isArray(allowed) ? allowed : [allowed]).includes(mime)) throw Boom.unsupportedMediaType();
    return h.continue;
  });
}

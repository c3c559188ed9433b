import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';

/**
 * Refuses a body whose Content-Length is over its route's cap before reading any of it. hapi
 * alone refuses it too, but only after reading (and discarding) the whole body: a client sending
 * 50 MB would hear 413 only once all 50 MB had gone out. Answered first, with Connection: close
 * (hapi adds it while a body is unread), the client can stop, and the connection closes after the
 * answer instead of reading the rest.
 */
export function refuseOversizedBodies(server: Server): void {
  server.ext('onPreAuth', (request, h) => {
    // hapi never reads a GET or HEAD body, so there is nothing to refuse.
    if (request.method === 'get' || request.method === 'head') return h.continue;
    const maxBytes = request.route.settings.payload?.maxBytes;
    const declared = Number(request.headers['content-length']);
    if (maxBytes !== undefined && declared > maxBytes) {
      throw Boom.entityTooLarge(`Request body is ${declared} bytes; this route accepts at most ${maxBytes}`);
    }
    return h.continue;
  });
}
